// Selection: where, masked_fill, clamp / clamp_min / clamp_max (kernels in
// ew_arith.cu). Bounds and values may be numbers or broadcast tensors.
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"

namespace pf::gpu {
namespace {

const char* kArith = "ew_arith.cu";

Result<std::vector<DeviceTensor>> run_where(const GpuArgs& a, const std::vector<TensorType>& out,
                                            PlanBuilder& b) {
  EwLaunch l;
  l.file = kArith;
  l.kernel = "where";
  l.compute = l.out = out[0].dtype;
  l.shape = out[0].shape;
  l.inputs = {operand(a, 0), operand(a, 1), operand(a, 2)};
  l.bool_args = 1;
  PF_ASSIGN(DeviceTensor y, launch_elementwise(b, l));
  return std::vector<DeviceTensor>{y};
}

Result<std::vector<DeviceTensor>> run_masked_fill(const GpuArgs& a,
                                                  const std::vector<TensorType>& out,
                                                  PlanBuilder& b) {
  EwLaunch l;
  l.file = kArith;
  l.kernel = "masked_fill";
  l.compute = l.out = out[0].dtype;
  l.shape = out[0].shape;
  l.inputs = {operand(a, 0), operand(a, 1), operand(a, 2)};
  l.bool_args = 2;
  PF_ASSIGN(DeviceTensor y, launch_elementwise(b, l));
  return std::vector<DeviceTensor>{y};
}

// lower/upper: parameter indices of the bounds (0 = the op has no such bound).
GpuOpFn clamp_fn(size_t lower, size_t upper) {
  return [lower, upper](const GpuArgs& a, const std::vector<TensorType>& out,
                        PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    EwLaunch l;
    l.file = kArith;
    l.kernel = "clamp";
    l.compute = l.out = out[0].dtype;
    l.shape = out[0].shape;
    bool has_lo = lower != 0 && !a.is_none(lower), has_hi = upper != 0 && !a.is_none(upper);
    l.inputs = {operand(a, 0), has_lo ? operand(a, lower) : EwOperand::number(0, 0),
                has_hi ? operand(a, upper) : EwOperand::number(0, 0)};
    l.si[0] = (has_lo ? 1 : 0) | (has_hi ? 2 : 0);
    PF_ASSIGN(DeviceTensor y, launch_elementwise(b, l));
    return std::vector<DeviceTensor>{y};
  };
}

}  // namespace

void register_gpu_selection_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"where", run_where, all_dtypes()});
  r.add(GpuOpInfo{"masked_fill", run_masked_fill, all_dtypes()});
  r.add(GpuOpInfo{"clamp", clamp_fn(1, 2), all_dtypes()});
  r.add(GpuOpInfo{"clamp_min", clamp_fn(1, 0), all_dtypes()});
  r.add(GpuOpInfo{"clamp_max", clamp_fn(0, 1), all_dtypes()});
}

}  // namespace pf::gpu
