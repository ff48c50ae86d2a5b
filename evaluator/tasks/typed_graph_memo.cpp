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
  std::string k = key(variant);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = entries_.find(k); it != entries_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second.lru);
      ++hits_;
      return it->second.graph;
    }
  }
  // Typed outside the lock: two threads may type one variant at once, and
  // the second insert finds the first's entry.
  Result<Graph> graph = typed_variant_graph(variant, registry);
  if (!graph.ok() || k.size() > max_key_bytes_) return graph;
  std::lock_guard<std::mutex> lock(mu_);
  if (entries_.count(k) != 0) return graph;
  while (!lru_.empty() && key_bytes_ + k.size() > max_key_bytes_) {
    key_bytes_ -= lru_.back().size();
    entries_.erase(lru_.back());
    lru_.pop_back();
  }
  lru_.push_front(k);
  key_bytes_ += k.size();
  entries_.emplace(std::move(k), Entry{*graph, lru_.begin()});
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
