#include "evaluator/passes/dry_run.h"

#include <algorithm>

#include "evaluator/core/tensor.h"
#include "evaluator/ops/bound_args.h"
#include "evaluator/passes/call_binding.h"

namespace pf::passes {
namespace {

// Fake, well-aligned addresses: marshalling needs a pointer, nothing reads it.
constexpr CUdeviceptr kFakeBase = CUdeviceptr{1} << 40;
constexpr CUdeviceptr kFakeStride = CUdeviceptr{1} << 34;

class DryBackend : public ReplacementBackend {
 public:
  DryBackend(const std::vector<TensorMeta>& params, const cuda::DeviceLimits& device)
      : params_(params), device_(device) {}

  Status allocate(int, const TensorType&, bool) override { return ok_status(); }
  Result<CUdeviceptr> data_ptr(int handle) override {
    CUdeviceptr base = kFakeBase + kFakeStride * static_cast<CUdeviceptr>(handle);
    if (static_cast<size_t>(handle) < params_.size()) {
      const TensorMeta& t = params_[handle];
      base += static_cast<CUdeviceptr>(t.offset) * dtype_size(t.dtype);
    }
    return base;
  }
  const cuda::DeviceLimits& device_limits() const override { return device_; }
  Result<cuda::FunctionLimits> function_limits(const cuda::KernelInfo& kernel) override {
    return estimated_function_limits(kernel);
  }
  Status launch(const cuda::KernelInfo&, const cuda::LaunchConfig&, cuda::ArgPack) override {
    return ok_status();
  }

 private:
  std::vector<TensorMeta> params_;
  const cuda::DeviceLimits& device_;
};

std::vector<TensorMeta> contiguous_of(const Value& v) {
  std::vector<TensorMeta> out;
  for (const auto& t : v.types) out.push_back(TensorMeta::contiguous(t));
  return out;
}

bool is_view_node(const Node& n, const OpInfo* op) {
  if (op == nullptr || !op->cpu) return false;
  if (op->is_view) return true;
  return n.op == "getitem" && n.args.size() >= 2 && !n.args[1].references_values();
}

// The view's geometry from the CPU op run on storage-less stand-ins (view
// ops compute geometry only, as the GPU's view probe relies on).
std::vector<TensorMeta> view_geometry(const Graph& g, const Node& n, const OpInfo& op,
                                      const std::vector<std::vector<TensorMeta>>& geo,
                                      const OpRegistry& registry) {
  std::vector<std::vector<Tensor>> host(g.values.size());
  for (ValueId v : Graph::node_operands(n)) {
    if (!host[v].empty()) continue;
    for (const TensorMeta& m : geo[v]) {
      Tensor base = Tensor::zeros(m.dtype, {1});
      host[v].push_back(Tensor::view_of(base, m.shape, m.strides, m.offset));
    }
  }
  BoundArgs<Tensor> args(n, registry.param_names(op.name), host);
  auto outs = op.cpu(args, g.values[n.output].types);
  if (!outs.ok()) return contiguous_of(g.values[n.output]);
  std::vector<TensorMeta> out;
  for (const Tensor& t : *outs) out.push_back({t.dtype(), t.shape(), t.strides(), t.offset()});
  return out;
}

}  // namespace

cuda::DeviceLimits sm90_device_limits() {
  cuda::DeviceLimits l;
  l.max_threads_per_block = 1024;
  l.max_block_dims = {1024, 1024, 64};
  l.max_grid_dims = {2147483647, 65535, 65535};
  l.max_smem_per_block = 48 * 1024;
  l.max_smem_per_block_optin = 227 * 1024;
  return l;
}

cuda::FunctionLimits estimated_function_limits(const cuda::KernelInfo& kernel) {
  cuda::FunctionLimits f;
  if (kernel.registers > 0) {
    int per_warp = ((kernel.registers * 32 + 255) / 256) * 256;
    int warps = 65536 / per_warp;
    f.max_threads_per_block = std::min(1024, warps * 32);
  }
  f.static_smem_bytes = std::max<long long>(kernel.static_smem_bytes, 0);
  return f;
}

std::vector<CallDryRun> dry_run(const Graph& g, const std::vector<LoadedPass>& passes,
                                const KernelTable& kernels, const OpRegistry& registry,
                                const DryRunOptions& options) {
  std::vector<CallDryRun> out;
  std::vector<std::vector<TensorMeta>> geo(g.values.size());
  for (ValueId v : g.inputs) geo[v] = contiguous_of(g.values[v]);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    const Value& result = g.values[n.output];
    if (is_call_op(n.op)) {
      CallDryRun call;
      call.node = static_cast<int>(i);
      call.pass = call_op_pass_name(n.op);
      geo[n.output] = contiguous_of(result);
      auto pass = std::find_if(passes.begin(), passes.end(),
                               [&](const LoadedPass& p) { return p.name == call.pass; });
      if (pass == passes.end()) {
        call.failure = FailureClass::runtime_fail;
        call.error = "no pass named '" + call.pass + "'";
        out.push_back(std::move(call));
        continue;
      }
      CallArgs bound = bind_call(g, n, [&](ValueId v) { return geo[v]; });
      DryBackend backend(bound.tensors, options.device);
      ReplacementInterpreter interp(*pass, kernels, backend, options.limits);
      auto run = interp.run(bound.tensors, bound.args, result.types);
      if (!run.ok()) {
        call.failure = interp.failure_class();
        call.error = run.error().message;
      } else {
        call.launches = run->launches;
        geo[n.output].clear();
        for (int h : run->outputs) geo[n.output].push_back(run->tensors[h]);
      }
      out.push_back(std::move(call));
      continue;
    }
    const OpInfo* op = registry.find(n.op);
    if (n.op == "tuple_get" && n.args.size() == 2 && n.args[0].is_value() &&
        n.args[1].kind == Arg::Kind::integer) {
      const auto& items = geo[n.args[0].value];
      int64_t k = n.args[1].i < 0 ? n.args[1].i + static_cast<int64_t>(items.size()) : n.args[1].i;
      geo[n.output] = k >= 0 && k < static_cast<int64_t>(items.size())
                          ? std::vector<TensorMeta>{items[k]}
                          : contiguous_of(result);
    } else if (is_view_node(n, op)) {
      geo[n.output] = view_geometry(g, n, *op, geo, registry);
    } else {
      geo[n.output] = contiguous_of(result);
    }
  }
  return out;
}

}  // namespace pf::passes
