// `passforge export`: reads one or more stores, selects episodes with the
// filters, writes one JSONL file (or one per split) in the chosen format.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/result.h"
#include "trajectories/export_options.h"

namespace pf::traj {

struct ExportSummary {
  ExportFormat format = ExportFormat::openai;
  int64_t episodes_read = 0;
  std::map<std::string, int64_t> records_per_file;  // path -> records
  //! filter -> episodes excluded (for dpo: pair skip reason -> pairs).
  std::map<std::string, int64_t> excluded;
  std::vector<std::string> notes;

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

//! Writes the export; files appear complete or not at all (temp + rename).
Result<ExportSummary> export_trajectories(const std::vector<std::filesystem::path>& stores,
                                          const ExportOptions& options);

}  // namespace pf::traj
