// A worker's pool of eager-side timing samples (docs/evaluation.md "Baseline
// pool"). The eager baseline of a variant is the same work in every
// evaluation of its task, so the samples earlier evaluations in this worker
// measured of it are a prior for the next (gpu::PriorSamples): one round of
// fresh eager trials, interleaved with the candidate's as always and required
// to agree with the prior, instead of ten or more. Keyed by the typed graph,
// the variant's full content and the timing options that change what a trial
// measures; per key the most recent kMaxSamples samples are kept (so the
// prior follows the GPU as it changes), least recently used keys are dropped
// beyond kMaxKeys.
//
// The drift guard: a prior is only as good as the GPU's steadiness between
// evaluations, and one variant's round of fresh trials cannot tell a drift of
// a percent or two from noise. Across variants it can: after every
// evaluation whose eager side was given a prior, the ratio of its fresh
// median to the prior's is observed (observe()); when the median of the last
// kDriftWindow ratios (once kDriftMinimum are in) is further from 1 than the
// precision each side is measured to, the pool is emptied and every variant
// is measured afresh. Without drift the ratios centre on 1.
//
// Thread-safe: find() and insert() take a mutex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>

#include "common/lru_map.h"
#include "evaluator/core/ir.h"
#include "evaluator/gpu/timing.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/task.h"

namespace pf::protocol {

class BaselinePool {
 public:
  static constexpr size_t kMaxSamples = 40;
  static constexpr size_t kMaxKeys = 4096;

  //! The process's pool, shared by every evaluation of the worker.
  static BaselinePool& process();

  //! What identifies the eager side's work: the graph it runs, the variant
  //! (shapes, dtypes, literal data), the options a trial depends on and the
  //! device (its name and ordinal) it runs on.
  static std::string key(const Graph& graph, const OpRegistry& registry,
                         const TaskVariant& variant, const gpu::TimingOptions& options,
                         const std::string& device);

  std::optional<gpu::PriorSamples> find(const std::string& key);
  //! Keeps the most recent kMaxSamples of `side`'s samples (its prior, then
  //! its fresh trials, in trial order), launched as `side.launch`.
  void insert(const std::string& key, const gpu::SideTiming& side);
  size_t size() const;

  static constexpr size_t kDriftWindow = 64;
  static constexpr size_t kDriftMinimum = 32;
  //! One evaluation's fresh eager median over its prior's. True when the
  //! window's median ratio is off 1 by more than `bound` (relative): the
  //! pool and the window are emptied then.
  bool observe(double fresh_over_prior, double bound);
  //! How often observe() emptied the pool.
  uint64_t drift_resets() const;

 private:
  mutable std::mutex mu_;
  LruMap<gpu::PriorSamples> entries_{kMaxKeys};  // cost 1: counts keys
  std::deque<double> ratios_;                    // the last kDriftWindow observations
  uint64_t drift_resets_ = 0;
};

}  // namespace pf::protocol
