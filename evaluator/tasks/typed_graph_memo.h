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
#include <list>
#include <map>
#include <mutex>
#include <string>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/task.h"

namespace pf {

class TypedGraphMemo {
 public:
  explicit TypedGraphMemo(size_t max_key_bytes) : max_key_bytes_(max_key_bytes) {}

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
  struct Entry {
    Graph graph;
    std::list<std::string>::iterator lru;
  };
  size_t max_key_bytes_;
  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;
  std::list<std::string> lru_;  // most recent first
  size_t key_bytes_ = 0;
  size_t hits_ = 0;
};

}  // namespace pf
