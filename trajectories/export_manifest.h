// The manifest beside every export (issue 16): `<stem>.manifest.json` and a
// Hugging Face dataset card `<stem>.README.md` (YAML header with the
// configs/splits, then prose) next to `<stem>.jsonl`. They say how the data
// was selected (the verified rule and every loosening), how many episodes were
// kept and dropped for which reason, which runs, models, prompt variants, GPUs
// and passforge versions produced it, which task went to which split, and the
// SHA-256 of every data file, so a training team can audit an export without
// passforge (docs/export-formats.md "Manifest").
#pragma once

#include <filesystem>
#include <string>

#include "common/result.h"
#include "trajectories/export_options.h"
#include "trajectories/exporter.h"
#include "trajectories/verification.h"

namespace pf::traj {

//! data.jsonl -> data.manifest.json; data.README.md.
std::filesystem::path manifest_path(const std::filesystem::path& out);
std::filesystem::path card_path(const std::filesystem::path& out);

Json export_manifest(const ExportOptions& options, const VerifyRule& rule,
                     const ExportSummary& summary);

//! The dataset card for a manifest.
std::string dataset_card(const Json& manifest);

//! Writes both beside the export and records their paths in the summary.
Status write_manifest(const ExportOptions& options, const VerifyRule& rule, ExportSummary& summary);

}  // namespace pf::traj
