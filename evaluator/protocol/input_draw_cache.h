// A worker's memo of informative input draws (informative_inputs.h): the
// inputs of one (variant, seed, input set, zero-std rule) are the same on
// every evaluation (synthesis is deterministic), but drawing them costs up to
// a second for a large variant (CPU synthesis plus the baseline's probe
// runs). A worker that evaluates many candidates of one task with a
// requested seed (fixed-seed experiments, replays, `--seed`) draws each set
// once; evaluations with a fresh seed do not use it (full_evaluation.cpp).
// The budget counts against the worker's memory limit, hence its size. Entries are keyed by the
// variant's full content (task JSON and the exact bytes of literal data), never by name alone, and
// handed out as deep copies, so nothing an evaluation does to its inputs reaches the next one.
// Least recently used entries are dropped beyond a byte budget (inputs and
// outputs); a draw larger than the budget is not kept.
//
// Thread-safe: find() and insert() take a mutex.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "common/lru_map.h"
#include "evaluator/tasks/informative_inputs.h"
#include "evaluator/tasks/task.h"

namespace pf::protocol {

class InputDrawCache {
 public:
  explicit InputDrawCache(uint64_t max_bytes) : entries_(max_bytes) {}

  //! The process's cache (kProcessBudgetBytes), shared by every evaluation.
  static InputDrawCache& process();
  static constexpr uint64_t kProcessBudgetBytes = uint64_t{256} << 20;

  //! What identifies a draw: the variant's content and the synthesis options.
  static std::string key(const TaskVariant& variant, const SynthesisOptions& options);

  //! A deep copy of the draw stored under `key`, or nullopt.
  std::optional<InputDraw> find(const std::string& key);
  void insert(const std::string& key, const InputDraw& draw);

  uint64_t bytes() const;
  size_t size() const;

 private:
  mutable std::mutex mu_;
  LruMap<InputDraw> entries_;  // cost: the draw's bytes
};

}  // namespace pf::protocol
