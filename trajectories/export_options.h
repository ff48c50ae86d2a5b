// Options of `passforge export` (issue 7), defaults in one place. Formats and
// filters are documented in docs/export-formats.md.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace pf::traj {

enum class ExportFormat { openai, sharegpt, trl, dpo, raw };
enum class ReasoningMode { keep, drop };
//! Which assistant messages are trained on (weight 1).
enum class WeightMode { all, final, improving };

struct SplitSpec {
  std::string name;
  double fraction = 0;
};

struct ExportOptions {
  ExportFormat format = ExportFormat::openai;
  std::filesystem::path out;
  //! Episodes need the AS of their selecting evaluation (the final submit;
  //! DPO: the chosen side's) strictly above this. nullopt = the format's
  //! default: 0.1 (PassNet's threshold), none for raw.
  std::optional<double> min_as;
  bool best_only = false;  // per task, the episode with the highest AS
  //! The verified rule's loosenings (verification.h VerifyRule); raw applies
  //! no verification.
  double min_correct = 1.0;
  bool include_flagged = false;
  bool include_unstable = false;
  bool include_compile_only = false;
  //! tests/data/pytorch_levels.json-style per-variant levels; "" = t = -5.
  std::filesystem::path correctness_levels;
  bool dedupe = false;  // per task, one episode per final workspace
  std::optional<int64_t> max_tokens;
  ReasoningMode reasoning = ReasoningMode::keep;
  WeightMode weight = WeightMode::all;
  std::vector<SplitSpec> splits;  // empty = one output file
};

inline constexpr double kDefaultMinAs = 0.1;

Result<ExportFormat> parse_export_format(std::string_view s);
Result<ReasoningMode> parse_reasoning_mode(std::string_view s);
Result<WeightMode> parse_weight_mode(std::string_view s);
std::string_view to_string(ExportFormat f);

//! "train=0.9,val=0.1": names [A-Za-z0-9_-], fractions > 0 summing to 1.
Result<std::vector<SplitSpec>> parse_splits(std::string_view s);

//! The split a task belongs to: deterministic in the task id alone (SHA-256),
//! so a task never lands in two splits, across runs and machines.
const std::string& split_for_task(const std::vector<SplitSpec>& splits, std::string_view task_id);

//! data.jsonl + "train" -> data.train.jsonl.
std::filesystem::path split_path(const std::filesystem::path& out, const std::string& split);

}  // namespace pf::traj
