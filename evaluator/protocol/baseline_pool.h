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
// Thread-safe: find() and insert() take a mutex.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>

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

 private:
  struct Entry {
    gpu::PriorSamples samples;
    std::list<std::string>::iterator lru;
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;
  std::list<std::string> lru_;  // most recent first
};

}  // namespace pf::protocol
