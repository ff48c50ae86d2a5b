// `passforge export`: reads one or more stores, selects episodes with the
// filters, writes one JSONL file (or one per split) in the chosen format.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/result.h"
#include "trajectories/export_options.h"
#include "trajectories/records.h"

namespace pf::traj {

//! One written data file, as the manifest lists it.
struct ExportFile {
  std::filesystem::path path;
  std::string split;  // "" without --split
  int64_t records = 0;
  int64_t bytes = 0;
  std::string sha256;           // of the file's content
  std::set<std::string> tasks;  // of its records
};

struct ExportSummary {
  ExportFormat format = ExportFormat::openai;
  int64_t episodes_read = 0;
  std::map<std::string, int64_t> records_per_file;  // path -> records
  //! filter -> episodes excluded (for dpo: pair skip reason -> pairs).
  std::map<std::string, int64_t> excluded;
  std::vector<std::string> notes;
  std::vector<ExportFile> files;
  //! Every run read: its RunRecord fields (record_json), the store it came
  //! from, episodes read and records written from it.
  Json runs = Json::array();
  std::set<std::string> models, prompt_variants;  // of the records written
  //! Verdicts of the episodes read (raw: of every episode): reason -> episodes.
  std::map<std::string, int64_t> verdicts;
  std::filesystem::path manifest_path, card_path;

  int64_t records() const;
  std::string to_text() const;
};

//! What an export with `options` would select, without writing anything:
//! the episodes kept (ids, in output order) and the episodes each filter
//! drops. Not for dpo (pairs are formed after selection).
struct ExportPreview {
  int64_t episodes_read = 0;
  std::vector<std::string> kept;
  std::map<std::string, int64_t> excluded;  // filter -> episodes
};
Result<ExportPreview> preview_export(const std::vector<std::filesystem::path>& stores,
                                     const ExportOptions& options);

//! Writes the export; files appear complete or not at all (OutputFile:
//! temp + rename, only over a regular file), then its manifest and dataset
//! card beside it (export_manifest.h).
Result<ExportSummary> export_trajectories(const std::vector<std::filesystem::path>& stores,
                                          const ExportOptions& options);

}  // namespace pf::traj
