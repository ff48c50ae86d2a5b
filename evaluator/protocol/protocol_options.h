// The knobs of the full evaluation protocol (docs/design.md "Evaluation
// protocol", "Scoring", "Integrity"), with their defaults in one place.
//
// The first group mirrors the [evaluator] configuration keys of the same
// names (config/config.h holds the user-facing defaults; a test checks they
// agree): the agent and `passforge eval` send that section as the request's
// "options" object and options_from_json reads it back. The second group are
// protocol details a request may set but a configuration does not (seeds,
// defence tuning); docs/evaluation.md describes each.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/result.h"
#include "evaluator/scoring/score.h"
#include "evaluator/tasks/synthesis.h"

namespace pf::protocol {

//! The clock speedups are computed from (docs/evaluation.md "Timing clock").
enum class TimingClock : uint8_t {
  device,      // CUDA events around each trial; batched rounds with graph replay
  end_to_end,  // a synchronised host clock around each trial
};

const char* timing_clock_name(TimingClock clock);

struct ProtocolOptions {
  // [evaluator] keys.
  int warmup = 4;
  int trials = 100;  // the most; the count when timing_precision is 0
  //! Adaptive trial count (gpu::TimingOptions::precision): stop once both
  //! sides' medians are known to this relative half-width; 0: fixed count.
  double timing_precision = 0.025;
  int min_trials = 20;
  //! The eager side's own minimum (gpu::TimingOptions::min_trials_b).
  int baseline_min_trials = 10;
  //! Eager samples of earlier evaluations in this worker as a prior
  //! (baseline_pool.h); off by default: docs/evaluation.md says why.
  bool baseline_pool = false;
  double timing_confidence = 0.95;
  bool l2_flush = true;
  bool graph_replay = true;    // time captured CUDA graphs (gpu::TimingOptions::graph_replay)
  TimingClock timing_clock = TimingClock::end_to_end;
  double iqr_threshold = 0.2;  // IQR/median above this re-measures, then `unstable`
  int remeasure = 1;
  ScoringOptions scoring;   // b = 0.1, p = 0, strict
  int tolerance_min = -10;  // the ES_t curve reported (AS always uses every level)
  int tolerance_max = 4;
  ZeroStdRule std_zero_rule = ZeroStdRule::passforge;

  // Request-level protocol details.
  //! Input synthesis seed (input set k uses round k). Unset: evaluate_full
  //! draws a fresh one per evaluation and records it in the result's
  //! options, so nothing computed for an earlier evaluation (an expected
  //! output left in device memory) fits this one; `passforge eval --seed`
  //! reproduces a run.
  std::optional<uint64_t> seed;
  bool determinism_rerun = true;
  //! Timed re-checks: after every 2 * recheck_cycle + 1 timed trials the
  //! candidate plan that just ran (alternately input set 0's and 1's) has its
  //! outputs verified and re-poisoned; its next runs must write them again.
  int recheck_cycle = 2;
  //! Re-poison the candidate's outputs before every timed trial too (outside
  //! the timed region), not only before checked runs: a kernel that skips its
  //! work when its output already holds values gains nothing. Off only to
  //! show the roofline check (hack corpus).
  bool repoison_every_trial = true;
  //! A trivial output (zeros, a constant, a copy of an input) that is correct
  //! at this level makes the variant `weak_task`.
  int trivial_guard_level = -5;
  //! `implausible_speedup` when the candidate's device time is below this
  //! fraction of the variant's roofline floor (bytes it must read at the
  //! device's peak bandwidth, flops at a generous peak).
  double implausible_fraction = 0.5;
  //! Timing is shortened (fewer trials, reported) when the measured run time
  //! says warm-up + trials would take longer than this.
  double timing_budget_s = 60;
  bool timing_samples = false;  // raw per-trial samples in the result
  bool include_rewritten = true;
  size_t max_match_steps = 2'000'000;
  std::string arch;  // NVRTC target; empty: the GPU's own (compile-only: sm_90)
};

//! Reads the known keys of a request's "options" object (unknown keys, such
//! as the rest of the [evaluator] section, are ignored; null keeps the
//! default). Errors name the key: "options.trials must be an integer >= 1".
Result<ProtocolOptions> options_from_json(const nlohmann::json& options);

//! Every key options_from_json reads, with its value.
nlohmann::json options_to_json(const ProtocolOptions& options);

}  // namespace pf::protocol
