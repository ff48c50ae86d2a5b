// cummax, cummin and logcumsumexp composed of GPU ops already verified on the
// device (narrow views, comparisons, where, maximum/minimum, exp, log1p and
// copies): an inclusive scan by doubling (Hillis-Steele), log2(n) steps that
// each combine position i with position i - s. Both combines are
// associative, so the result is the sequential loop's of the CPU reference
// (ops/cumulative_extrema.cpp): the pair (value, index) keeps the right one
// when it is NaN or >= (<=) the left one, which is the last index of the
// running extremum; log-add-exp only reorders the sums (float32 for half
// inputs, rounded once). O(n log n) work and O(n) memory per row, so no
// length needs refusing.
#include <functional>

#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/layout_util.h"

namespace pf::gpu {
namespace {

using Outputs = Result<std::vector<DeviceTensor>>;
using Tensors = std::vector<DeviceTensor>;
// The combined values of the right-hand positions from (left, right) parts.
using Combine = std::function<Result<Tensors>(PlanBuilder&, const Tensors&, const Tensors&)>;

Result<DeviceTensor> part(PlanBuilder& b, const DeviceTensor& t, int64_t dim, int64_t start,
                          int64_t length) {
  return call_gpu_op1(b, "narrow",
                      {t, Arg::make_int(dim), Arg::make_int(start), Arg::make_int(length)});
}

// The view of contiguous `t` holding [start, start + length) along dim.
DeviceTensor slice_of(const DeviceTensor& t, int64_t dim, int64_t start, int64_t length) {
  Shape s = t.shape();
  s[static_cast<size_t>(dim)] = length;
  return DeviceTensor::view_of(t, s, t.strides(),
                               t.offset() + start * t.strides()[static_cast<size_t>(dim)]);
}

// Inclusive scan of the tensors `v` (one shape, rank >= 1) along dim.
Result<Tensors> scan_by_doubling(PlanBuilder& b, Tensors v, int64_t dim, const Combine& combine) {
  const int64_t n = v[0].shape()[static_cast<size_t>(dim)];
  for (int64_t s = 1; s < n; s *= 2) {
    Tensors left, right;
    for (const DeviceTensor& t : v) {
      PF_ASSIGN(DeviceTensor l, part(b, t, dim, 0, n - s));
      PF_ASSIGN(DeviceTensor r, part(b, t, dim, s, n - s));
      left.push_back(l);
      right.push_back(r);
    }
    PF_ASSIGN(Tensors combined, combine(b, left, right));
    for (size_t k = 0; k < v.size(); ++k) {
      PF_ASSIGN(DeviceTensor next, b.allocate({v[k].dtype(), v[k].shape()}));
      PF_ASSIGN(DeviceTensor head, part(b, v[k], dim, 0, s));
      PF_TRY(copy_into(b, head, slice_of(next, dim, 0, s)));
      PF_TRY(copy_into(b, combined[k], slice_of(next, dim, s, n - s)));
      v[k] = next;
    }
  }
  return v;
}

// x as rank >= 1 (a 0-d input as one element) and the scanned dim.
struct ScanInput {
  DeviceTensor x;
  int64_t dim = 0;
};

Result<ScanInput> scan_input(const GpuArgs& a) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, std::max<int64_t>(x.dim(), 1)));
  if (x.dim() == 0) return ScanInput{DeviceTensor::view_of(x, {1}, {1}, x.offset()), 0};
  return ScanInput{x, dim};
}

DeviceTensor as_shape(const DeviceTensor& t, const Shape& shape) {
  return DeviceTensor::view_of(t, shape, contiguous_strides(shape), t.offset());
}

GpuOpFn extremum_fn(bool is_max) {
  return [is_max](const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) -> Outputs {
    PF_ASSIGN(ScanInput in, scan_input(a));
    const DType t = out[0].dtype;
    if (in.x.numel() == 0) {
      PF_ASSIGN(DeviceTensor values, b.allocate(out[0]));
      PF_ASSIGN(DeviceTensor indices, b.allocate(out[1]));
      return Tensors{values, indices};
    }
    // Bool compares as uint8 (0 < 1), the CPU reference's integer order.
    PF_ASSIGN(DeviceTensor x, as_dtype(b, in.x, t == DType::boolean ? DType::uint8 : t));
    const int64_t n = x.shape()[static_cast<size_t>(in.dim)];
    PF_ASSIGN(DeviceTensor ids, call_gpu_op1(b, "arange", {Arg::make_int(0), Arg::make_int(n)}));
    Strides along(static_cast<size_t>(x.dim()), 0);
    along[static_cast<size_t>(in.dim)] = 1;
    const DeviceTensor positions = DeviceTensor::view_of(ids, x.shape(), along, ids.offset());
    const bool floating = is_floating(t);
    const std::string keep_right = is_max ? "ge" : "le";
    Combine combine = [&](PlanBuilder& pb, const Tensors& l, const Tensors& r) -> Result<Tensors> {
      PF_ASSIGN(DeviceTensor take, call_gpu_op1(pb, keep_right, {r[0], l[0]}));
      if (floating) {
        PF_ASSIGN(DeviceTensor nan, call_gpu_op1(pb, "isnan", {r[0]}));
        PF_ASSIGN(take, call_gpu_op1(pb, "logical_or", {take, nan}));
      }
      PF_ASSIGN(DeviceTensor v, call_gpu_op1(pb, "where", {take, r[0], l[0]}));
      PF_ASSIGN(DeviceTensor i, call_gpu_op1(pb, "where", {take, r[1], l[1]}));
      return Tensors{v, i};
    };
    PF_ASSIGN(Tensors scanned, scan_by_doubling(b, {x, positions}, in.dim, combine));
    PF_ASSIGN(DeviceTensor values, materialize(b, scanned[0], t));
    PF_ASSIGN(DeviceTensor indices, contiguous(b, scanned[1]));
    return Tensors{as_shape(values, out[0].shape), as_shape(indices, out[1].shape)};
  };
}

// log(exp(l) + exp(r)) through the larger one, as PyTorch's
// _log_add_exp_helper: equal infinities give themselves (inf - inf is NaN);
// maximum and minimum propagate NaN.
Result<Tensors> log_add_exp(PlanBuilder& b, const Tensors& l, const Tensors& r) {
  PF_ASSIGN(DeviceTensor hi, call_gpu_op1(b, "maximum", {l[0], r[0]}));
  PF_ASSIGN(DeviceTensor lo, call_gpu_op1(b, "minimum", {l[0], r[0]}));
  PF_ASSIGN(DeviceTensor gap, call_gpu_op1(b, "sub", {lo, hi}));
  PF_ASSIGN(DeviceTensor e, call_gpu_op1(b, "exp", {gap}));
  PF_ASSIGN(DeviceTensor l1p, call_gpu_op1(b, "log1p", {e}));
  PF_ASSIGN(DeviceTensor sum, call_gpu_op1(b, "add", {hi, l1p}));
  PF_ASSIGN(DeviceTensor same, call_gpu_op1(b, "eq", {lo, hi}));
  PF_ASSIGN(DeviceTensor infinite, call_gpu_op1(b, "isinf", {lo}));
  PF_ASSIGN(DeviceTensor both, call_gpu_op1(b, "logical_and", {same, infinite}));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "where", {both, hi, sum}));
  return Tensors{y};
}

Outputs run_logcumsumexp(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  PF_ASSIGN(ScanInput in, scan_input(a));
  const DType t = out[0].dtype;
  if (in.x.numel() == 0) {
    PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
    return Tensors{y};
  }
  PF_ASSIGN(DeviceTensor x, as_dtype(b, in.x, composite_compute_dtype(t)));
  PF_ASSIGN(Tensors scanned, scan_by_doubling(b, {x}, in.dim, log_add_exp));
  PF_ASSIGN(DeviceTensor y, materialize(b, scanned[0], t));
  return Tensors{as_shape(y, out[0].shape)};
}

}  // namespace

void register_gpu_cumulative_extrema_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"cummax", extremum_fn(true), all_dtypes()});
  r.add(GpuOpInfo{"cummin", extremum_fn(false), all_dtypes()});
  r.add(GpuOpInfo{"logcumsumexp", run_logcumsumexp, float_dtypes()});
}

}  // namespace pf::gpu
