// masked_scatter composed of GPU ops already verified on the device: the
// mask (broadcast to the output) as int64, its running sum along the
// flattened output gives each true position its source element (count - 1),
// one gather from the flattened source, and where(mask, gathered, input).
// Positions before the first true read element 0 (clamped) and are not
// taken. A source shorter than the mask's count reads zeros there (gathers
// skip out-of-range indices); the CPU reference reports it as an error.
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"

namespace pf::gpu {
namespace {

DeviceTensor broadcast(const DeviceTensor& t, const Shape& shape) {
  return DeviceTensor::view_of(t, shape, broadcast_strides(t.shape(), t.strides(), shape),
                               t.offset());
}

DeviceTensor flat(const DeviceTensor& contiguous) {
  return DeviceTensor::view_of(contiguous, {contiguous.numel()}, {1}, contiguous.offset());
}

Result<std::vector<DeviceTensor>> run_masked_scatter(const GpuArgs& a,
                                                     const std::vector<TensorType>& out,
                                                     PlanBuilder& b) {
  const Shape& shape = out[0].shape;
  const DeviceTensor mask = broadcast(a.tensor(1), shape);
  PF_ASSIGN(DeviceTensor ones, materialize(b, mask, DType::int64));
  PF_ASSIGN(DeviceTensor count, call_gpu_op1(b, "cumsum", {flat(ones), Arg::make_int(0)}));
  PF_ASSIGN(DeviceTensor from, call_gpu_op1(b, "sub", {count, Arg::make_int(1)}));
  PF_ASSIGN(DeviceTensor at, call_gpu_op1(b, "clamp", {from}, {{"min", Arg::make_int(0)}}));
  PF_ASSIGN(DeviceTensor source, contiguous(b, a.tensor(2)));
  PF_ASSIGN(DeviceTensor taken, call_gpu_op1(b, "gather", {flat(source), Arg::make_int(0), at}));
  const DeviceTensor placed =
      DeviceTensor::view_of(taken, shape, contiguous_strides(shape), taken.offset());
  PF_ASSIGN(DeviceTensor y,
            call_gpu_op1(b, "where", {mask, placed, broadcast(a.tensor(0), shape)}));
  return std::vector<DeviceTensor>{y};
}

}  // namespace

void register_gpu_masked_scatter_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"masked_scatter", run_masked_scatter, all_dtypes()});
}

}  // namespace pf::gpu
