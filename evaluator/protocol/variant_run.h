// What the full protocol finds out about one variant on the GPU (docs/design.md
// "Evaluation protocol" 3-5, "Integrity"): failure class, per-output
// comparisons on both input sets, timing of both sides, integrity flags with
// their evidence, the roofline floor and how long each phase took. Its JSON
// extends the compile-only variant object (docs/evaluation.md).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "evaluator/protocol/integrity_checks.h"
#include "evaluator/protocol/roofline.h"
#include "evaluator/scoring/failure_class.h"
#include "evaluator/scoring/output_compare.h"

namespace pf::protocol {

//! One integrity finding. `blames_model` is false for findings about the
//! task (weak_task): they are reported, never put into hack_flags.
struct IntegrityFlag {
  std::string flag;  // implausible_speedup, unwritten_output, inputs_modified, ...
  std::string evidence;
  bool blames_model = true;
};

struct OutputReport {
  std::string dtype;
  Shape shape;
  OutputComparison comparison;
  int64_t poisoned = 0;  // elements still holding the poison after the run
};

struct SideSummary {
  double device_median_ms = 0, device_iqr_ms = 0;
  //! Unset when the trials ran in batched rounds (no host clock per trial).
  std::optional<double> e2e_median_ms, e2e_iqr_ms;
  bool unstable = false;
  std::vector<double> device_samples, e2e_samples;  // only with options.timing_samples
};

struct TimingSummary {
  SideSummary candidate, eager;
  //! Timed trials of the candidate and of the eager side (last attempt;
  //! the eager side may stop sooner); the most either could run.
  int trials = 0, eager_trials = 0, max_trials = 0;
  //! Eager samples from the worker's baseline pool the medians include, and
  //! whether a prior was given and dropped (the fresh samples disagreed).
  int eager_prior_trials = 0;
  bool eager_prior_dropped = false;
  //! With a prior (used or dropped): the fresh eager median over the prior's,
  //! and whether this observation emptied the pool (BaselinePool::observe).
  std::optional<double> eager_prior_ratio;
  bool eager_pool_emptied = false;
  int warmup = 0, attempts = 0, checks = 0;
  //! The clock the speedup comes from: "device" or "end_to_end".
  std::string clock;
  //! The trials ran in batched rounds (gpu::TimingResult::batched).
  bool batched = false;
  //! The relative half-width of the median time's confidence interval on
  //! that clock, the worse side (timing_stopping.h); infinity: too few trials.
  double precision = 0;
  //! The options' timing_precision (0: fixed count).
  double precision_target = 0;
  bool stopped_early = false;  // the precision was reached before max_trials
  bool reduced = false;        // fewer trials than asked (options.timing_budget_s)
  std::string launch;          // "graph" (captured, replayed) or "stream"
  std::string graph_fallback;  // why graph replay was asked for but not used
};

struct VariantRun {
  FailureClass failure = FailureClass::none;
  std::string message;  // the failure in words (plan build error, first mismatch, ...)
  //! Not scored (the baseline cannot run it): the reason. Like `unstable`, a
  //! skipped variant is reported, not blamed on the model.
  std::string skipped;
  //! Worst over both input sets. Above t = -5 (but passing somewhere) the
  //! variant is still timed and scored per level; its JSON class is `accuracy`.
  int first_passing_level = kMaxToleranceLevel + 1;
  std::vector<OutputReport> outputs;  // input set 0
  std::vector<OutputReport> recheck;  // input set 1
  bool deterministic = true;          // the re-run gave the same bits
  std::optional<TimingSummary> timing;
  double speedup = 0;
  bool unstable = false;
  std::vector<IntegrityFlag> flags;
  std::vector<TrivialCheck> trivial;
  RooflineFloor roofline;
  std::map<std::string, double> phase_ms;
  //! Host traffic: bytes downloaded from the device while this variant ran,
  //! and bytes the protocol downloaded before the device checks existed and
  //! no longer does (tensors the device checks vouched for, host copies of
  //! drawn inputs not made): before = downloaded + avoided.
  uint64_t downloaded_bytes = 0;
  uint64_t avoided_bytes = 0;
  //! Per input set whose synthesised inputs were drawn again
  //! (informative_inputs.h): "input set 1: attempt 0 (...): output 0: all zeros".
  std::vector<std::string> inputs_redrawn;
  //! A sticky CUDA error: the worker's context is gone; nothing more can run
  //! in this process.
  bool fatal = false;

  //! first_passing_level with PassNet's allclose operand order (rtol on
  //! |candidate|), over the same outputs; never where outputs were not compared.
  int first_passing_level_rtol_candidate() const;

  bool correct() const {
    return failure == FailureClass::none && skipped.empty() &&
           first_passing_level <= kBaselineToleranceLevel;
  }
  //! The fields this run adds to the variant's compile-only JSON object.
  void merge_into(nlohmann::json& variant) const;
};

}  // namespace pf::protocol
