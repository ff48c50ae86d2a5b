// Ops that alias their input but are not marked is_view in the CPU registry
// (may_alias): getitem with only ints / slices / None / Ellipsis (a view,
// through the view probe; tensor indices gather a copy and belong to the
// indexing family) and positive (the input itself). Pure view ops (view,
// transpose, permute, expand, unsqueeze, split, ...) need no entry: the
// registry runs them through the view probe.
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/gpu_views.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/op_registry.h"

namespace pf::gpu {
namespace {

Status basic_indexing_only(const ArgReader& a) {
  if (a.arg(1).references_values()) {
    return make_error(ErrorCode::unsupported,
                      "op 'getitem' with tensor indices (advanced indexing) has no GPU baseline");
  }
  return ok_status();
}

Result<std::vector<DeviceTensor>> run_getitem(const GpuArgs& a, const std::vector<TensorType>& out,
                                              PlanBuilder&) {
  PF_TRY(basic_indexing_only(a));
  return run_view_probe(*OpRegistry::builtin().find("getitem"), a, out);
}

Result<std::vector<DeviceTensor>> run_positive(const GpuArgs& a, const std::vector<TensorType>&,
                                               PlanBuilder&) {
  return std::vector<DeviceTensor>{a.tensor(0)};
}

}  // namespace

void register_gpu_view_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"getitem", run_getitem, all_dtypes(), basic_indexing_only});
  r.add(GpuOpInfo{"positive", run_positive, all_dtypes()});
}

}  // namespace pf::gpu
