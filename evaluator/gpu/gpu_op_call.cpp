#include "evaluator/gpu/gpu_op_call.h"

#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/gpu_views.h"
#include "evaluator/ops/op_registry.h"

namespace pf::gpu {

namespace {

// Tensors go into the call's environment; literals pass through.
Arg bind(CallArg&& a, std::vector<std::vector<DeviceTensor>>& env,
         std::vector<std::vector<TensorType>>& types) {
  if (auto* t = std::get_if<DeviceTensor>(&a)) {
    const auto id = static_cast<ValueId>(env.size());
    types.push_back({t->type()});
    env.push_back({std::move(*t)});
    return Arg::make_value(id);
  }
  return std::move(std::get<Arg>(a));
}

}  // namespace

Arg int_list(const std::vector<int64_t>& values) {
  std::vector<Arg> items;
  for (int64_t v : values) items.push_back(Arg::make_int(v));
  return Arg::make_list(std::move(items));
}

Result<std::vector<DeviceTensor>> call_gpu_op(
    PlanBuilder& b, const std::string& op, std::vector<CallArg> positional,
    std::vector<std::pair<std::string, CallArg>> keywords) {
  const OpRegistry& reg = OpRegistry::builtin();
  const OpInfo* info = reg.find(op);
  if (info == nullptr) return make_error(ErrorCode::internal, "no op '" + op + "' to call");
  std::vector<std::vector<DeviceTensor>> env;
  std::vector<std::vector<TensorType>> types;
  std::vector<Arg> pos;
  for (auto& a : positional) pos.push_back(bind(std::move(a), env, types));
  std::vector<std::pair<std::string, Arg>> kw;
  for (auto& [name, a] : keywords) kw.emplace_back(name, bind(std::move(a), env, types));
  Node node;
  node.op = op;
  PF_ASSIGN(node.args, reg.normalize(*info, std::move(pos), std::move(kw)));
  const auto* names = reg.param_names(op);
  PF_ASSIGN(std::vector<TensorType> out_types,
            info->infer(BoundArgs<TensorType>(node, names, types)));
  BoundArgs<DeviceTensor> args(node, names, env);
  Result<std::vector<DeviceTensor>> out = make_error(ErrorCode::internal, "unreachable");
  if (const GpuOpInfo* g = GpuOpRegistry::builtin().find(op)) {
    std::vector<DType> dtypes;
    for (const auto& ts : types) dtypes.push_back(ts[0].dtype);
    for (const auto& t : out_types) dtypes.push_back(t.dtype);
    PF_TRY(GpuOpRegistry::builtin().supports(op, dtypes));
    out = g->run(args, out_types, b);
  } else if (info->is_view && info->cpu) {
    out = run_view_probe(*info, args, out_types);
  } else {
    return make_error(ErrorCode::unsupported, "op '" + op + "' has no GPU baseline implementation");
  }
  if (!out.ok()) return out.error().with_context("gpu " + op);
  return out;
}

Result<DeviceTensor> call_gpu_op1(PlanBuilder& b, const std::string& op,
                                  std::vector<CallArg> positional,
                                  std::vector<std::pair<std::string, CallArg>> keywords) {
  PF_ASSIGN(std::vector<DeviceTensor> out,
            call_gpu_op(b, op, std::move(positional), std::move(keywords)));
  if (out.size() != 1)
    return make_error(ErrorCode::internal,
                      op + " returned " + std::to_string(out.size()) + " tensors");
  return std::move(out[0]);
}

}  // namespace pf::gpu
