#include "evaluator/gpu/gpu_op_registry.h"

#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_views.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"

namespace pf::gpu {

std::set<DType> all_dtypes() {
  std::set<DType> out;
  for (int i = 0; i < kNumDTypes; ++i) out.insert(static_cast<DType>(i));
  return out;
}

std::set<DType> float_dtypes() {
  return {DType::float16, DType::bfloat16, DType::float32, DType::float64};
}

const GpuOpRegistry& GpuOpRegistry::builtin() {
  static const GpuOpRegistry r = [] {
    GpuOpRegistry reg;
    register_all_gpu_ops(reg);
    return reg;
  }();
  return r;
}

void GpuOpRegistry::add(GpuOpInfo info) {
  std::string name = info.name;
  ops_.insert_or_assign(std::move(name), std::move(info));
}

const GpuOpInfo* GpuOpRegistry::find(std::string_view name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : &it->second;
}

std::vector<std::string> GpuOpRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, info] : ops_) out.push_back(name);
  return out;
}

namespace {

// CPU view ops run through the probe unless the GPU registry has an entry.
const OpInfo* probe_view_op(std::string_view name) {
  const OpInfo* op = OpRegistry::builtin().find(name);
  return op != nullptr && op->is_view && op->cpu ? op : nullptr;
}

}  // namespace

Status GpuOpRegistry::supports(std::string_view op, const std::vector<DType>& dtypes) const {
  const GpuOpInfo* info = find(op);
  if (info == nullptr) {
    if (probe_view_op(op) != nullptr) return ok_status();
    return make_error(ErrorCode::unsupported,
                      "op '" + std::string(op) + "' has no GPU baseline implementation");
  }
  for (DType t : dtypes) {
    if (info->dtypes.count(t) == 0) {
      return make_error(
          ErrorCode::unsupported,
          "op '" + std::string(op) + "' has no GPU baseline for " + dtype_name(t) + " tensors");
    }
  }
  return ok_status();
}

Status GpuOpRegistry::supports_node(const Graph& graph, const Node& node) const {
  std::vector<DType> dtypes;
  for (ValueId v : Graph::node_operands(node)) {
    for (const auto& t : graph.values[v].types) dtypes.push_back(t.dtype);
  }
  for (const auto& t : graph.values[node.output].types) dtypes.push_back(t.dtype);
  PF_TRY(supports(node.op, dtypes));
  const GpuOpInfo* info = find(node.op);
  if (info != nullptr && info->accepts) {
    PF_TRY(info->accepts(ArgReader(node, OpRegistry::builtin().param_names(node.op))));
  }
  return ok_status();
}

Result<std::vector<DeviceTensor>> GpuOpRegistry::run(
    const Graph& graph, const Node& node, const std::vector<std::vector<DeviceTensor>>& env,
    PlanBuilder& plan) const {
  PF_TRY(supports_node(graph, node));
  const auto& out_types = graph.values[node.output].types;
  BoundArgs<DeviceTensor> args(node, OpRegistry::builtin().param_names(node.op), env);
  Result<std::vector<DeviceTensor>> out = make_error(ErrorCode::internal, "unreachable");
  if (const GpuOpInfo* info = find(node.op)) {
    out = info->run(args, out_types, plan);
  } else {
    out = run_view_probe(*probe_view_op(node.op), args, out_types);
  }
  if (!out.ok()) return out.error().with_context("gpu " + node.op);
  return out;
}

void register_all_gpu_ops(GpuOpRegistry& r) {
  register_gpu_elementwise_ops(r);
  register_gpu_selection_ops(r);
  register_gpu_copy_ops(r);
  register_gpu_creation_ops(r);
  register_gpu_reduction_ops(r);
  register_gpu_softmax_ops(r);
  register_gpu_norm_ops(r);
  register_gpu_matmul_ops(r);
  register_gpu_view_ops(r);
  register_gpu_layout_ops(r);
  register_gpu_index_ops(r);
  register_gpu_pool_ops(r);
  register_gpu_fold_ops(r);
  register_gpu_interpolate_ops(r);
  register_gpu_conv_ops(r);
  register_gpu_attention_ops(r);
  register_gpu_scan_ops(r);
  register_gpu_sort_ops(r);
  register_gpu_order_statistics_ops(r);
  register_gpu_masked_scatter_ops(r);
  register_gpu_scatter_reduce_ops(r);
  register_gpu_index_put_ops(r);
  register_gpu_grid_sample_ops(r);
  register_gpu_einsum_ops(r);
  register_gpu_loss_ops(r);
  register_gpu_lp_pool_lrn_ops(r);
  register_gpu_diag_block_ops(r);
  register_gpu_search_ops(r);
  register_gpu_cumulative_extrema_ops(r);
  register_gpu_rnn_cell_ops(r);
  register_gpu_histc_ops(r);
  register_gpu_mode_ops(r);
}

}  // namespace pf::gpu
