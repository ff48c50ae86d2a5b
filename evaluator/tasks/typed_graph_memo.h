// A process's memo of typed variant graphs. Every evaluation of a task's
// candidates types the same variants again (parse, build, infer types: about
// 0.1 ms a variant, 1.5-2 ms of the ~110 a GPU worker spends on one full
// evaluation of the quickstart mix), so a worker keeps the graphs it typed.
//
// The key is everything typing reads (typed_variant_graph): the variant's
// name and source and its inputs' names, dtypes and shapes; never literal
// data or statistics, which typing does not see. Only the built-in registry
// is memoised: another registry's address may later hold different ops.
// Failures are not kept (they are rare and their message must stay fresh).
// The least recently used entries are dropped beyond a budget of key bytes
// (the source dominates both the key and the graph).
//
// Thread-safe: lookups and inserts take a mutex; graphs are handed out as
// copies.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>

#include "common/lru_map.h"
#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/task.h"

namespace pf {

class TypedGraphMemo {
 public:
  explicit TypedGraphMemo(size_t max_key_bytes) : entries_(max_key_bytes) {}

  //! The process's memo (kProcessBudgetBytes of keys).
  static TypedGraphMemo& process();
  static constexpr size_t kProcessBudgetBytes = size_t{32} << 20;

  //! typed_variant_graph(variant, registry), from the memo when it holds it.
  Result<Graph> typed(const TaskVariant& variant, const OpRegistry& registry);

  //! What typing reads of a variant, as bytes.
  static std::string key(const TaskVariant& variant);

  size_t size() const;
  size_t hits() const;

 private:
  mutable std::mutex mu_;
  LruMap<Graph> entries_;  // cost: the key's bytes
  size_t hits_ = 0;
};

}  // namespace pf
