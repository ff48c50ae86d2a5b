// index_put composed of GPU ops already verified on the device: the element
// offset of every position of the written view in a contiguous copy of the
// input (each index tensor as int64, wrapped by a remainder with its dim's
// size and scaled by that dim's stride, summed; each whole dim an arange
// scaled by its stride, broadcast into the view), then one scatter (or
// scatter_add for accumulate) of the broadcast values (a number: `full`)
// into the flattened copy. Duplicate positions without accumulate race there as in PyTorch;
// the CPU reference refuses inputs where that decides the result
// (ops/index_put.cpp).
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/index_put_form.h"

namespace pf::gpu {
namespace {

// t (whose dims are the view's dims [from, from + t.dim())) seen with the
// view's shape: stride 0 elsewhere and where t broadcasts.
DeviceTensor placed(const DeviceTensor& t, const Shape& view, size_t from) {
  Shape own(view.begin() + static_cast<int64_t>(from),
            view.begin() + static_cast<int64_t>(from + t.shape().size()));
  const Strides inner = broadcast_strides(t.shape(), t.strides(), own);
  Strides st(view.size(), 0);
  std::copy(inner.begin(), inner.end(), st.begin() + static_cast<int64_t>(from));
  return DeviceTensor::view_of(t, view, st, t.offset());
}

Result<std::vector<DeviceTensor>> run_index_put(const GpuArgs& a,
                                                const std::vector<TensorType>& out,
                                                PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(IndexPutForm f, read_index_put_form(
                                a, x.shape(), [](const DeviceTensor& t) { return t.shape(); },
                                [](const DeviceTensor& t) { return t.dtype(); }));
  PF_ASSIGN(bool accumulate, a.boolean(3));
  const Strides strides = contiguous_strides(x.shape());
  DeviceTensor offsets;
  for (size_t k = 0; k < f.indexed.size(); ++k) {
    const auto dim = static_cast<size_t>(f.indexed[k]);
    const DeviceTensor& raw = a.env()[a.arg(1).items[f.items[k]].value][0];
    PF_ASSIGN(DeviceTensor idx, materialize(b, raw, DType::int64));
    PF_ASSIGN(DeviceTensor wrapped,
              call_gpu_op1(b, "remainder", {idx, Arg::make_int(x.shape()[dim])}));
    PF_ASSIGN(DeviceTensor term, call_gpu_op1(b, "mul", {wrapped, Arg::make_int(strides[dim])}));
    const DeviceTensor in_b = placed(term, f.broadcast, f.broadcast.size() - term.shape().size());
    if (!offsets.defined()) {
      offsets = in_b;
    } else {
      PF_ASSIGN(offsets, call_gpu_op1(b, "add", {offsets, in_b}));
    }
  }
  offsets = placed(offsets, f.view, f.broadcast_at);
  for (size_t k = 0; k < f.sliced.size(); ++k) {
    const auto dim = static_cast<size_t>(f.sliced[k]);
    PF_ASSIGN(DeviceTensor ids,
              call_gpu_op1(b, "arange", {Arg::make_int(0), Arg::make_int(x.shape()[dim])}));
    PF_ASSIGN(DeviceTensor term, call_gpu_op1(b, "mul", {ids, Arg::make_int(strides[dim])}));
    const size_t pos = k < f.broadcast_at ? k : k + f.broadcast.size();
    PF_ASSIGN(offsets, call_gpu_op1(b, "add", {offsets, placed(term, f.view, pos)}));
  }
  PF_ASSIGN(DeviceTensor flat_offsets, materialize(b, offsets, DType::int64));
  // Half sums run in float32 and round once, as the CPU reference's (and
  // PyTorch CUDA's) accumulation; one rounding per atomic add would make the
  // result depend on the order the adds land in.
  const DType compute = accumulate ? composite_compute_dtype(x.dtype()) : x.dtype();
  DeviceTensor values;
  if (a.is_tensor(2)) {
    const DeviceTensor& v = a.tensor(2);
    PF_ASSIGN(values,
              materialize(b, placed(v, f.view, f.view.size() - v.shape().size()), compute));
  } else {
    PF_ASSIGN(values, call_gpu_op1(b, "full", {int_list(f.view), a.arg(2)},
                                   {{"dtype", Arg::make_dtype(compute)}}));
  }
  DeviceTensor base;
  if (compute != x.dtype()) {
    PF_ASSIGN(base, materialize(b, x, compute));
  } else {
    PF_ASSIGN(base, contiguous(b, x));
  }
  const int64_t n = shape_numel(f.view);
  auto flat = [n](const DeviceTensor& t) { return DeviceTensor::view_of(t, {n}, {1}, t.offset()); };
  const DeviceTensor whole = DeviceTensor::view_of(base, {x.numel()}, {1}, base.offset());
  PF_ASSIGN(DeviceTensor sum,
            call_gpu_op1(b, accumulate ? "scatter_add" : "scatter",
                         {whole, Arg::make_int(0), flat(flat_offsets), flat(values)}));
  PF_ASSIGN(DeviceTensor y, as_dtype(b, sum, x.dtype()));
  return std::vector<DeviceTensor>{
      DeviceTensor::view_of(y, out[0].shape, contiguous_strides(out[0].shape), y.offset())};
}

}  // namespace

void register_gpu_index_put_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"index_put", run_index_put, all_dtypes()});
}

}  // namespace pf::gpu
