// The timing harness (docs/design.md "Evaluation protocol" 5): two runnables (the
// candidate and the baseline) timed interleaved, A B A B ..., after a
// warm-up; the L2 cache is flushed (sandbox L2Flusher, 1.25x L2) before
// every trial; each trial is bracketed by CUDA events (device time) and by a
// synchronised host steady clock (end-to-end time). Each runnable rotates
// over its plans (one per input set: at least two, which defeats caching
// keyed on pointers). Medians and IQRs per side; when a side's IQR / median
// exceeds the limit the trials are measured again (re-measures times), then
// the result is marked unstable. Raw samples are returned. A checker can
// re-check the outputs of timed trials.
//
// Trial count: fixed (`trials`) when `precision` is 0; otherwise trials run in
// rounds of `round_trials()` and each side stops at the end of the first round,
// past its minimum (`minimum_trials()`, B's `minimum_trials_b()`), where its
// median is known to `precision` (timing_stopping.h), else at `trials`; once
// one side has stopped the other's trials run on alone. Every round ends with
// a checked trial, so a side's last trial is always checked either way.
//
// Warm-up: its trials are enqueued back to back without flushes (nothing of
// them is measured) and the host waits once, at the end.
//
// Batched rounds: with the device clock as the stability metric and every
// plan replayed as a captured graph, a round's trials (with their re-poisoning
// and flushes) are enqueued back to back, each bracketed by its own pair of
// events, and the host waits once per round; no host clock is read per trial,
// so there are no end-to-end samples (e2e_ms stays empty). With stream
// launches the host's launch gaps are part of what is measured, so those
// trials keep the per-trial synchronisation whatever the clock.
//
// Not thread-safe: one harness per worker thread (it owns events and the
// flush buffer); the runtime's context must be current.
//
// Launching: by default every plan is captured once into a CUDA graph and
// each trial replays it (cuda::CudaGraph), so device time is the kernels'
// time without the host's launch gaps, as PyTorch eager kernels are measured
// (captured and replayed; bench/fidelity.py). If any plan of either side
// cannot be captured both sides fall back to stream launches (one comparison
// never mixes the two), and the result says why.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/gpu/gpu_runtime.h"
#include "evaluator/gpu/plan.h"
#include "evaluator/gpu/timing_stats.h"
#include "evaluator/gpu/timing_stopping.h"
#include "sandbox/cuda/l2_flush.h"

namespace pf::gpu {

enum class StabilityMetric : uint8_t {
  end_to_end,  // the host wall clock (what speedups are computed from)
  device,      // the CUDA-event time
  both,
};

struct TimingOptions {
  int warmup = 25;
  //! The most timed trials per side (the count, with precision 0).
  int trials = 100;
  //! Stop once both sides' medians (of the stability metric's samples) are
  //! known to this relative half-width of their confidence interval; 0: off.
  double precision = 0;
  double confidence = 0.95;
  //! With precision > 0: trials per side before the rule may stop, raised to
  //! cover two checks of each side (so each of two input sets' plans) and
  //! every plan twice, in whole rounds.
  int min_trials = 20;
  //! With precision > 0: B's own minimum, in whole rounds (0: A's). The
  //! checks are what raise A's minimum; B (the baseline, which no check
  //! judges) needs only its median's precision. Each side stops on its own
  //! at a round's end once past its minimum and precise; the other runs on.
  int min_trials_b = 0;
  bool flush_l2 = true;
  double max_iqr_ratio = 0.2;
  int remeasures = 1;
  //! The clock that decides stability and precision: the one speedups are
  //! computed from (the protocol sets it from `evaluator.timing_clock`).
  StabilityMetric stability = StabilityMetric::end_to_end;
  //! Batched rounds (above) where the clock and the launches allow them.
  bool batch_rounds = true;
  //! The checker runs after every check_every-th trial of each side and after
  //! the last one (0: only after the last).
  int check_every = 10;
  //! Replay each plan as a captured CUDA graph (false: submit its steps to
  //! the stream every trial, host launch gaps included).
  bool graph_replay = true;
  //! Every plan has run before (its lazy first-call work, module loads and
  //! library handles, is done): captured without running it first.
  bool plans_warm = false;
};

//! One side: trial t runs plans[t % plans.size()].
struct Runnable {
  std::string name;
  std::vector<const Plan*> plans;
};

//! B's samples from earlier measurements of the same work with the same
//! options (a worker's baseline pool), in trial order, and how they were
//! launched. With a prior that matches B's launch, B's minimum is one round
//! of fresh trials and its precision is judged on prior and fresh samples
//! together, as long as the fresh ones agree with the prior
//! (agrees_with_prior on the stability metric's samples, checked at every
//! round's end); once they do not, the prior is dropped and B is measured
//! afresh, as without one.
struct PriorSamples {
  std::vector<double> device_ms, e2e_ms;
  std::string launch;  // "graph" or "stream"
};

//! Called after a timed trial (side 0 = A, 1 = B) with the index of the plan
//! that ran; its outputs are complete. An error stops the measurement.
using TrialChecker = std::function<Status(int side, int trial, size_t plan_index)>;
//! Called before every trial (warm-up included) of a side, with the plan
//! that is about to run, before the L2 flush and outside the timed region
//! (re-poisoning outputs). It enqueues its work on the runtime's stream and
//! need not wait for it: in batched rounds nothing of the round has run yet.
//! An error stops the measurement.
using TrialPreparer = std::function<Status(int side, size_t plan_index)>;

struct SideTiming {
  std::string name;
  //! Timed trials in the last attempt (the two sides may stop apart).
  int trials() const { return static_cast<int>(device_ms.size()) - prior; }
  //! Per trial, after the `prior` samples of a PriorSamples that was used.
  std::vector<double> device_ms;
  std::vector<double> e2e_ms;  // per trial; empty in batched rounds
  int prior = 0;
  //! A prior was given and dropped: the fresh samples did not agree with it.
  bool prior_dropped = false;
  SampleStats device;
  SampleStats e2e;
  bool unstable = false;
  //! How trials launched: "graph" (captured, replayed) or "stream".
  std::string launch = "stream";
  //! With graph_replay requested but "stream" used: why capture failed.
  std::string graph_fallback;
  //! The medians' relative precision (timing_stopping.h) at the options'
  //! confidence, fixed count or not.
  MedianPrecision e2e_precision;
  MedianPrecision device_precision;
};

struct TimingResult {
  SideTiming a;
  SideTiming b;
  int attempts = 1;  // 1 + the re-measures that ran
  int checks = 0;    // checker calls
  int trials = 0;    // A's timed trials in the last attempt (B's: b.trials())
  //! The precision rule ended both sides' last attempt before options.trials.
  bool stopped_early = false;
  //! Trials ran in batched rounds (no end-to-end samples).
  bool batched = false;
  //! Host time (ms) spent capturing the plans' graphs and in the warm-up.
  double capture_ms = 0;
  double warmup_ms = 0;
  bool unstable() const { return a.unstable || b.unstable; }
  nlohmann::json to_json(bool with_samples = true) const;
};

class TimingHarness {
 public:
  static Result<std::unique_ptr<TimingHarness>> create(GpuRuntime& runtime);
  ~TimingHarness();

  Result<TimingResult> time_interleaved(const Runnable& a, const Runnable& b,
                                        const TimingOptions& options,
                                        const TrialChecker& checker = nullptr,
                                        const TrialPreparer& prepare = nullptr,
                                        const PriorSamples* b_prior = nullptr);
  //! One runnable alone (benchmarks): the same protocol without a partner.
  Result<SideTiming> time_single(const Runnable& a, const TimingOptions& options);

 private:
  struct Impl;
  explicit TimingHarness(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

//! Marks a side unstable per the options (pure; unit-tested).
bool side_unstable(const SideTiming& side, const TimingOptions& options);

//! Trials per round: a check follows the last trial of every round
//! (check_every, or 10 when only the last trial is checked).
int round_trials(const TimingOptions& options);
//! The trials per side before the precision rule may stop (at most
//! options.trials), for runnables of up to `max_plans` plans: min_trials,
//! raised to whole rounds that check every plan twice.
int minimum_trials(const TimingOptions& options, size_t max_plans);
//! B's minimum: options.min_trials_b in whole rounds (at most options.trials),
//! or `minimum_a` when it is 0.
int minimum_trials_b(const TimingOptions& options, int minimum_a);
//! Whether a side's precision on the stability metric's samples meets
//! options.precision (> 0).
bool side_precise(const SideTiming& side, const TimingOptions& options);

}  // namespace pf::gpu
