#include "evaluator/gpu/gpu_views.h"

#include "evaluator/ops/op_registry.h"

namespace pf::gpu {

Result<std::vector<DeviceTensor>> run_view_probe(const OpInfo& op,
                                                 const BoundArgs<DeviceTensor>& args,
                                                 const std::vector<TensorType>& out_types) {
  const auto& env = args.env();
  std::vector<std::vector<Tensor>> host(env.size());
  // Fake host tensor -> the device tensor whose geometry it carries.
  std::vector<std::pair<Tensor, const DeviceTensor*>> fakes;
  for (ValueId v : Graph::node_operands(args.node())) {
    if (!host[v].empty()) continue;
    for (const DeviceTensor& d : env[v]) {
      Tensor base = Tensor::zeros(d.dtype(), {1});
      Tensor fake = Tensor::view_of(base, d.shape(), d.strides(), d.offset());
      host[v].push_back(fake);
      fakes.emplace_back(fake, &d);
    }
  }
  BoundArgs<Tensor> hargs(args.node(), OpRegistry::builtin().param_names(op.name), host);
  PF_ASSIGN(std::vector<Tensor> outs, op.cpu(hargs, out_types));
  std::vector<DeviceTensor> result;
  for (const Tensor& o : outs) {
    const DeviceTensor* source = nullptr;
    for (const auto& [fake, device] : fakes) {
      if (o.shares_storage(fake)) source = device;
    }
    if (source == nullptr) {
      return make_error(ErrorCode::internal,
                        op.name + ": the view probe's output aliases no input (not a view op)");
    }
    DeviceTensor view = DeviceTensor::view_of(*source, o.shape(), o.strides(), o.offset());
    PF_TRY(view.check_in_bounds());
    result.push_back(std::move(view));
  }
  return result;
}

}  // namespace pf::gpu
