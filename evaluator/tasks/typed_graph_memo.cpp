#include "evaluator/tasks/typed_graph_memo.h"

#include "evaluator/tasks/importer.h"

namespace pf {

TypedGraphMemo& TypedGraphMemo::process() {
  static TypedGraphMemo memo(kProcessBudgetBytes);
  return memo;
}

std::string TypedGraphMemo::key(const TaskVariant& variant) {
  // Lengths before the strings: no two variants spell the same key.
  std::string k;
  auto add = [&k](const std::string& s) {
    k += std::to_string(s.size());
    k += ':';
    k += s;
  };
  add(variant.name);
  add(variant.source);
  for (const InputMeta& in : variant.inputs) {
    add(in.name);
    add(dtype_name(in.dtype));
    k += std::to_string(in.shape.size());
    for (int64_t d : in.shape) {
      k += ',';
      k += std::to_string(d);
    }
    k += ';';
  }
  return k;
}

Result<Graph> TypedGraphMemo::typed(const TaskVariant& variant, const OpRegistry& registry) {
  if (&registry != &OpRegistry::builtin()) return typed_variant_graph(variant, registry);
  const std::string k = key(variant);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (const Graph* graph = entries_.find(k)) {
      ++hits_;
      return *graph;
    }
  }
  // Typed outside the lock: two threads may type one variant at once; the
  // second put replaces the first's equal graph.
  Result<Graph> graph = typed_variant_graph(variant, registry);
  if (!graph.ok()) return graph;
  std::lock_guard<std::mutex> lock(mu_);
  entries_.put(k, *graph, k.size());
  return graph;
}

size_t TypedGraphMemo::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

size_t TypedGraphMemo::hits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return hits_;
}

}  // namespace pf
