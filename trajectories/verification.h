// The verified rule (issue 16): which evaluation may be trained on, and why
// another may not. One rule for SFT exports, DPO's chosen side, improve's
// training episodes and exemplars, and what `ab` counts as solved
// (docs/export-formats.md "Verified episodes").
//
// An evaluation is verified when it is a full GPU evaluation (kind evaluate
// or submit), every variant of the task, hidden ones included, was evaluated
// and is correct at the correctness level, it carries no hack flag and no
// variant is unstable. The correctness level is t = -5 (the result's
// per-variant `correct`); a variant whose PyTorch CUDA result is itself less
// accurate than that (CorrectnessLevels, tests/data/pytorch_levels.json's
// format) is judged at that level instead, no looser. Stored results do not
// carry a per-variant level, so without a levels file the rule is t = -5.
// An episode is verified when its final `submit` evaluation is.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "trajectories/records.h"

namespace pf::traj {

//! "task/variant" -> the first tolerance level at which PyTorch's own CUDA
//! result matches float64; only levels above t = -5 are listed.
struct CorrectnessLevels {
  std::map<std::string, int> levels;
  std::string source;  // the file it came from
  std::string sha256;  // of that file

  //! The level a variant is judged at: max(-5, its listed level).
  int level_for(std::string_view task, std::string_view variant) const;
};

//! Reads {"levels": {"task/variant": int, ...}} (tests/gpu/pytorch_levels.py's output).
Result<CorrectnessLevels> load_correctness_levels(const std::filesystem::path& path);

//! The rule and its explicit loosenings (each recorded in an export's manifest).
struct VerifyRule {
  //! Share of the task's variants (hidden included) that must be correct.
  double min_correct = 1.0;
  bool include_flagged = false;   // hack-flagged evaluations may pass
  bool include_unstable = false;  // unstable timings may pass
  //! Compile-only evaluations (no GPU) may pass; a variant then counts as
  //! correct when it compiled, matched and dry-ran (no failure_class).
  bool include_compile_only = false;
  const CorrectnessLevels* levels = nullptr;  // nullptr: t = -5 everywhere

  bool strict() const {
    return min_correct >= 1.0 && !include_flagged && !include_unstable && !include_compile_only;
  }
};

//! Why an evaluation or episode is not verified; `none` = verified. The
//! order is the order of the checks (an episode is counted under the first).
enum class Rejection { none, no_submit, compile_only, flagged, unstable, incorrect };
std::string_view to_string(Rejection r);

struct Verdict {
  Rejection rejection = Rejection::none;
  //! Share of the task's variants (hidden included) correct under the rule;
  //! null when nothing was measured (compile-only without the loosening).
  std::optional<double> correct_share;

  bool verified() const { return rejection == Rejection::none; }
};

//! Judges one evaluate/submit evaluation of `task` (a compile evaluation is
//! never verified: it is `compile_only`).
Verdict verify_evaluation(const EvaluationRecord& e, const TaskRecord& task,
                          const VerifyRule& rule);

//! The episode's final submit evaluation (the last one recorded), if any.
std::optional<size_t> final_submit(const std::vector<EvaluationRecord>& evaluations);

struct EpisodeVerdict {
  std::optional<size_t> submit;  // index of the final submit evaluation
  Verdict verdict;               // no_submit without one
};

//! An episode is verified when its final submit evaluation is.
EpisodeVerdict verify_episode(const std::vector<EvaluationRecord>& evaluations,
                              const TaskRecord& task, const VerifyRule& rule);

}  // namespace pf::traj
