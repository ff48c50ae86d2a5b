#include "evaluator/passes/call_binding.h"

#include <map>

namespace pf::passes {
namespace {

class Binder {
 public:
  Binder(const Graph& g, const std::function<std::vector<TensorMeta>(ValueId)>& geometry,
         CallArgs& out)
      : g_(g), geometry_(geometry), out_(out) {}

  RValue value(const Arg& a) {
    if (a.is_value()) {
      auto it = handles_.find(a.value);
      if (it == handles_.end()) {
        std::vector<int> hs;
        std::vector<TensorMeta> metas = geometry_(a.value);
        for (size_t k = 0; k < metas.size(); ++k) {
          hs.push_back(static_cast<int>(out_.tensors.size()));
          out_.tensors.push_back(std::move(metas[k]));
          out_.sources.emplace_back(a.value, static_cast<int>(k));
        }
        it = handles_.emplace(a.value, std::move(hs)).first;
      }
      if (!g_.values[a.value].is_list && it->second.size() == 1) {
        return RValue::of_tensor(it->second[0]);
      }
      std::vector<RValue> items;
      for (int h : it->second) items.push_back(RValue::of_tensor(h));
      return RValue::tuple(std::move(items));
    }
    if (a.is_sequence() && a.references_values()) {
      std::vector<RValue> items;
      for (const auto& item : a.items) items.push_back(value(item));
      return RValue::tuple(std::move(items));
    }
    return literal_value(a);
  }

 private:
  const Graph& g_;
  const std::function<std::vector<TensorMeta>(ValueId)>& geometry_;
  CallArgs& out_;
  std::map<ValueId, std::vector<int>> handles_;
};

}  // namespace

CallArgs bind_call(const Graph& graph, const Node& call,
                   const std::function<std::vector<TensorMeta>(ValueId)>& geometry) {
  CallArgs out;
  Binder binder(graph, geometry, out);
  for (const Arg& a : call.args) out.args.push_back(binder.value(a));
  return out;
}

}  // namespace pf::passes
