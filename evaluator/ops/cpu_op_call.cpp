#include "evaluator/ops/cpu_op_call.h"

#include <type_traits>

#include "evaluator/ops/op_registry.h"

namespace pf {

namespace {

TensorType type_of(const Tensor& t) {
  return TensorType{t.dtype(), t.shape()};
}
TensorType type_of(const TensorType& t) {
  return t;
}

// Tensors (or their types) go into the call's environment; literals pass through.
template <typename T>
Arg bind(std::variant<T, Arg>&& a, std::vector<std::vector<T>>& env,
         std::vector<std::vector<TensorType>>& types) {
  if (auto* t = std::get_if<T>(&a)) {
    const auto id = static_cast<ValueId>(env.size());
    types.push_back({type_of(*t)});
    env.push_back({std::move(*t)});
    return Arg::make_value(id);
  }
  return std::move(std::get<Arg>(a));
}

// Normalises and types the call; runs the CPU reference when T is Tensor.
template <typename T>
Result<T> call1(const std::string& op, std::vector<std::variant<T, Arg>> positional,
                std::vector<std::pair<std::string, std::variant<T, Arg>>> keywords) {
  const OpRegistry& reg = OpRegistry::builtin();
  const OpInfo* info = reg.find(op);
  if (info == nullptr || !info->cpu)
    return make_error(ErrorCode::internal, "no CPU op '" + op + "' to call");
  std::vector<std::vector<T>> env;
  std::vector<std::vector<TensorType>> types;
  std::vector<Arg> pos;
  pos.reserve(positional.size());
  for (auto& a : positional) pos.push_back(bind(std::move(a), env, types));
  std::vector<std::pair<std::string, Arg>> kw;
  kw.reserve(keywords.size());
  for (auto& [name, a] : keywords) kw.emplace_back(name, bind(std::move(a), env, types));
  Node node;
  node.op = op;
  PF_ASSIGN(node.args, reg.normalize(*info, std::move(pos), std::move(kw)));
  const auto* names = reg.param_names(op);
  auto out_types = info->infer(BoundArgs<TensorType>(node, names, types));
  if (!out_types.ok()) return out_types.error().with_context(op);
  if (out_types->size() != 1)
    return make_error(ErrorCode::internal,
                      op + " returns " + std::to_string(out_types->size()) + " tensors");
  if constexpr (std::is_same_v<T, TensorType>) {
    return std::move((*out_types)[0]);
  } else {
    auto out = info->cpu(BoundArgs<Tensor>(node, names, env), *out_types);
    if (!out.ok()) return out.error().with_context(op);
    return std::move((*out)[0]);
  }
}

}  // namespace

Result<Tensor> call_cpu_op1(const std::string& op, std::vector<CpuCallArg> positional,
                            std::vector<std::pair<std::string, CpuCallArg>> keywords) {
  return call1<Tensor>(op, std::move(positional), std::move(keywords));
}

Result<TensorType> infer_op1(const std::string& op, std::vector<TypeCallArg> positional,
                             std::vector<std::pair<std::string, TypeCallArg>> keywords) {
  return call1<TensorType>(op, std::move(positional), std::move(keywords));
}

}  // namespace pf
