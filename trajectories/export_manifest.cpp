#include "trajectories/export_manifest.h"

#include <set>
#include <sstream>

#include "common/fs.h"
#include "passforge/version.h"
#include "trajectories/export_selection.h"
#include "trajectories/ids.h"

namespace pf::traj {
namespace {

std::filesystem::path beside(const std::filesystem::path& out, const std::string& suffix) {
  auto p = out;
  p.replace_filename(out.stem().string() + suffix);
  return p;
}

Json opt(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

//! The split name a file goes by in the card ("train" for a single file).
std::string card_split(const ExportFile& f) {
  return f.split.empty() ? "train" : f.split;
}

Json distinct(const Json& runs, const char* field) {
  std::set<std::string> values;
  for (const auto& r : runs) values.insert(field_or(r, field, std::string()));
  return Json(std::vector<std::string>(values.begin(), values.end()));
}

std::string rule_text(const ExportOptions& options, const VerifyRule& rule) {
  if (options.format == ExportFormat::raw) {
    return "raw: every episode of the stores, unfinished ones included; no quality filter "
           "unless one was given. Each record's metadata.verified says whether the verified "
           "rule below would keep it.";
  }
  std::string s =
      options.format == ExportFormat::dpo
          ? "A pair's chosen side is verified and strictly better than its rejected side (a "
            "verified side beats an unverified one; between two verified sides the higher AS "
            "wins). "
          : "An episode is kept when its final submitted evaluation is verified; the trained "
            "conversation ends at that submit. ";
  s += "Verified: a full GPU evaluation in which every variant of the task, hidden ones "
       "included, is correct at t = -5";
  if (rule.levels) s += " (or at the variant's own PyTorch level where listed in the levels file)";
  s += ", with no hack flag and no unstable timing.";
  return s;
}

std::vector<std::string> loosenings(const ExportOptions& options) {
  std::vector<std::string> out;
  if (options.min_correct < 1.0) {
    out.push_back("--min-correct " + std::to_string(options.min_correct));
  }
  if (options.include_flagged) out.push_back("--include-flagged");
  if (options.include_unstable) out.push_back("--include-unstable");
  if (options.include_compile_only) out.push_back("--include-compile-only");
  return out;
}

std::string yaml_quote(const std::string& s) {
  return json_text(Json(s));
}

}  // namespace

std::filesystem::path manifest_path(const std::filesystem::path& out) {
  return beside(out, ".manifest.json");
}

std::filesystem::path card_path(const std::filesystem::path& out) {
  return beside(out, ".README.md");
}

Json export_manifest(const ExportOptions& options, const VerifyRule& rule,
                     const ExportSummary& summary) {
  Json levels = nullptr;
  if (rule.levels) {
    levels = {{"file", rule.levels->source},
              {"sha256", rule.levels->sha256},
              {"variants", rule.levels->levels.size()}};
  }
  Json splits = nullptr;
  if (!options.splits.empty()) {
    splits = Json::array();
    for (const auto& s : options.splits)
      splits.push_back({{"name", s.name}, {"fraction", s.fraction}});
  }
  Json files = Json::array(), task_split = Json::object();
  int64_t records = 0;
  for (const auto& f : summary.files) {
    files.push_back({{"path", f.path.filename().string()},
                     {"split", card_split(f)},
                     {"records", f.records},
                     {"bytes", f.bytes},
                     {"sha256", f.sha256}});
    task_split[card_split(f)] = std::vector<std::string>(f.tasks.begin(), f.tasks.end());
    records += f.records;
  }
  std::set<std::string> suites;
  for (const auto& r : summary.runs) {
    suites.insert(field_or(r, "task_suite_id", std::string()) + " " +
                  field_or(r, "task_suite_hash", std::string()));
  }
  const bool raw = options.format == ExportFormat::raw;
  return {{"format", "passforge-export-manifest"},
          {"manifest_version", 1},
          {"created_at", now_iso8601()},
          {"exported_by", {{"passforge_version", kVersion}, {"git_commit", kGitCommit}}},
          {"export_format", to_string(options.format)},
          {"selection",
           {{"rule", raw ? "none" : "verified"},
            {"description", rule_text(options, rule)},
            {"verified_rule",
             {{"correctness_level", -5},
              {"correctness_levels", levels},
              {"min_correct", rule.min_correct},
              {"include_flagged", rule.include_flagged},
              {"include_unstable", rule.include_unstable},
              {"include_compile_only", rule.include_compile_only}}},
            {"loosened", loosenings(options)},
            {"min_as", opt(effective_min_as(options))},
            {"max_tokens", options.max_tokens ? Json(*options.max_tokens) : Json(nullptr)},
            {"best_only", options.best_only},
            {"dedupe", options.dedupe},
            {"weight", options.weight == WeightMode::all     ? "all"
                       : options.weight == WeightMode::final ? "final"
                                                             : "improving"},
            {"reasoning", options.reasoning == ReasoningMode::keep ? "keep" : "drop"},
            {"splits", splits}}},
          {"counts",
           {{"episodes_read", summary.episodes_read},
            {"records", records},
            {"record_unit", options.format == ExportFormat::dpo ? "pairs" : "episodes"},
            // For dpo, "pairs:<reason>" counts pairs; every other key counts episodes.
            {"dropped", summary.excluded},
            {"verdicts", summary.verdicts}}},
          {"files", files},
          {"task_split", task_split},
          {"runs", summary.runs},
          {"models", std::vector<std::string>(summary.models.begin(), summary.models.end())},
          {"prompt_variants", std::vector<std::string>(summary.prompt_variants.begin(),
                                                       summary.prompt_variants.end())},
          {"gpus", distinct(summary.runs, "gpu_name")},
          {"passforge_versions", distinct(summary.runs, "passforge_version")},
          {"nvrtc_versions", distinct(summary.runs, "nvrtc_version")},
          {"task_suites", std::vector<std::string>(suites.begin(), suites.end())},
          {"notes", summary.notes}};
}

std::string dataset_card(const Json& m) {
  std::ostringstream o;
  o << "---\n";
  o << "pretty_name: "
    << yaml_quote("passforge " + m["export_format"].get<std::string>() + " export") << "\n";
  o << "tags:\n- passforge\n- compiler-passes\n- cuda\n";
  o << "configs:\n- config_name: default\n  data_files:\n";
  for (const auto& f : m["files"]) {
    o << "  - split: " << yaml_quote(f["split"].get<std::string>())
      << "\n    path: " << yaml_quote(f["path"].get<std::string>()) << "\n";
  }
  o << "---\n\n";
  o << "# passforge " << m["export_format"].get<std::string>() << " export\n\n";
  o << "Agentic trajectories of LLMs writing compiler passes (CUDA kernels compiled with NVRTC, "
       "scored on the GPU with PassNet's error-aware speedup score), exported by passforge "
    << m["exported_by"]["passforge_version"].get<std::string>() << " ("
    << m["exported_by"]["git_commit"].get<std::string>() << ") at "
    << m["created_at"].get<std::string>()
    << ". Everything here is also in the JSON manifest beside this card.\n\n";
  const auto& sel = m["selection"];
  o << "## Selection\n\n" << sel["description"].get<std::string>() << "\n\n";
  if (sel["loosened"].empty()) {
    o << "No loosening of the verified rule was requested.\n\n";
  } else {
    o << "**Loosened** by:";
    for (const auto& l : sel["loosened"]) o << " `" << l.get<std::string>() << "`";
    o << "\n\n";
  }
  o << "Other options: min AS " << (sel["min_as"].is_null() ? "none" : sel["min_as"].dump())
    << ", max tokens " << (sel["max_tokens"].is_null() ? "none" : sel["max_tokens"].dump())
    << ", best only " << sel["best_only"].dump() << ", dedupe " << sel["dedupe"].dump()
    << ", weight " << sel["weight"].get<std::string>() << ", reasoning "
    << sel["reasoning"].get<std::string>() << ".\n\n";
  const auto& c = m["counts"];
  o << "## Counts\n\n"
    << c["episodes_read"] << " episodes read, " << c["records"] << " records written ("
    << c["record_unit"].get<std::string>() << ").\n\n| dropped because | count |\n|---|---|\n";
  for (const auto& [reason, n] : c["dropped"].items()) o << "| " << reason << " | " << n << " |\n";
  o << "\nVerdicts of the episodes read under the rule:";
  for (const auto& [v, n] : c["verdicts"].items()) o << " " << v << " " << n << ";";
  o << "\n\n## Files\n\n| file | split | records | bytes | sha256 |\n|---|---|---|---|---|\n";
  for (const auto& f : m["files"]) {
    o << "| " << f["path"].get<std::string>() << " | " << f["split"].get<std::string>() << " | "
      << f["records"] << " | " << f["bytes"] << " | `" << f["sha256"].get<std::string>() << "` |\n";
  }
  o << "\nTasks never appear in two splits (split by SHA-256 of the task id).\n\n";
  for (const auto& [split, tasks] : m["task_split"].items()) {
    o << "- " << split << ": " << tasks.size() << " tasks\n";
  }
  o << "\n## Runs\n\n| run | model | prompt variant | GPU | nvrtc | passforge | task suite | "
       "records |\n"
       "|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : m["runs"]) {
    o << "| " << field_or(r, "id", std::string()) << " | " << field_or(r, "model", std::string())
      << " | " << field_or(r, "prompt_variant", std::string()) << " | "
      << field_or(r, "gpu_name", std::string()) << " | "
      << field_or(r, "nvrtc_version", std::string()) << " | "
      << field_or(r, "passforge_version", std::string()) << " | "
      << field_or(r, "task_suite_hash", std::string()) << " | " << r["records"] << " |\n";
  }
  o << "\nModels: " << m["models"].dump() << ". Prompt variants: " << m["prompt_variants"].dump()
    << ".\n";
  for (const auto& n : m["notes"]) o << "\nNote: " << n.get<std::string>() << "\n";
  return o.str();
}

Status write_manifest(const ExportOptions& options, const VerifyRule& rule,
                      ExportSummary& summary) {
  Json m = export_manifest(options, rule, summary);
  summary.manifest_path = manifest_path(options.out);
  summary.card_path = card_path(options.out);
  PF_TRY(write_file_atomic(summary.manifest_path, json_text(m, 2) + "\n"));
  return write_file_atomic(summary.card_path, dataset_card(m));
}

}  // namespace pf::traj
