// torch.histc composed of GPU ops already verified on the device: the outer
// edges (the literal range, or min/max of the data widened when equal),
// the bin edges as the CPU reference's linspace (step rounded once from the
// exact span, then start + step * i up to halfway and end - step * (bins - i)
// after it), bucketize against the edges (a count of the edges at or below
// each value), the last bin closed, values outside the range moved to a
// spare bin and NaN to the first (PyTorch's CPU, the reference), and one
// scatter_add of ones. The op checks
// (ops/histc.cpp) already ran at type inference; a NaN in data whose range
// is taken from it is an error on the CPU reference, zero counts here.
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"

namespace pf::gpu {
namespace {

using Outputs = Result<std::vector<DeviceTensor>>;

// bucketize compares every value with every edge: past this many
// comparisons (bools) the composition has no GPU baseline.
constexpr int64_t kMaxComparisons = int64_t{1} << 28;

Result<DeviceTensor> filled(PlanBuilder& b, const Shape& shape, Arg value, DType dtype) {
  return call_gpu_op1(b, "full", {int_list(shape), std::move(value)},
                      {{"dtype", Arg::make_dtype(dtype)}});
}

// The bin edges of [lo, hi] (0-d tensors of dtype t), as linspace_values.
Result<DeviceTensor> bin_edges(PlanBuilder& b, const DeviceTensor& lo, const DeviceTensor& hi,
                               int64_t bins, DType t) {
  PF_ASSIGN(DeviceTensor lo64, as_dtype(b, lo, DType::float64));
  PF_ASSIGN(DeviceTensor hi64, as_dtype(b, hi, DType::float64));
  PF_ASSIGN(DeviceTensor span, call_gpu_op1(b, "sub", {hi64, lo64}));
  PF_ASSIGN(DeviceTensor step64, call_gpu_op1(b, "div", {span, Arg::make_int(bins)}));
  PF_ASSIGN(DeviceTensor step, as_dtype(b, step64, t));
  PF_ASSIGN(DeviceTensor ids, call_gpu_op1(b, "arange", {Arg::make_int(0), Arg::make_int(bins + 1)},
                                           {{"dtype", Arg::make_dtype(t)}}));
  PF_ASSIGN(DeviceTensor rise, call_gpu_op1(b, "mul", {step, ids}));
  PF_ASSIGN(DeviceTensor up, call_gpu_op1(b, "add", {lo, rise}));
  PF_ASSIGN(DeviceTensor negated, call_gpu_op1(b, "mul", {ids, Arg::make_int(-1)}));
  PF_ASSIGN(DeviceTensor left, call_gpu_op1(b, "add", {negated, Arg::make_int(bins)}));
  PF_ASSIGN(DeviceTensor fall, call_gpu_op1(b, "mul", {step, left}));
  PF_ASSIGN(DeviceTensor down, call_gpu_op1(b, "sub", {hi, fall}));
  PF_ASSIGN(DeviceTensor front, call_gpu_op1(b, "lt", {ids, Arg::make_int((bins + 1) / 2)}));
  return call_gpu_op1(b, "where", {front, up, down});
}

Outputs run_histc(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  const DType t = out[0].dtype;
  const int64_t bins = out[0].shape[0];
  PF_ASSIGN(DeviceTensor flat, call_gpu_op1(b, "reshape", {a.tensor(0), int_list({-1})}));
  const int64_t n = flat.numel();
  if (n == 0) {
    PF_ASSIGN(DeviceTensor y, filled(b, out[0].shape, Arg::make_int(0), t));
    return std::vector<DeviceTensor>{y};
  }
  if (n * (bins + 1) > kMaxComparisons) {
    return make_error(ErrorCode::unsupported,
                      "histc of " + std::to_string(n) + " values into " + std::to_string(bins) +
                          " bins has no GPU baseline (more than 2^28 value-edge comparisons)");
  }
  PF_ASSIGN(double lo_arg, a.real(2));
  PF_ASSIGN(double hi_arg, a.real(3));
  DeviceTensor lo, hi;
  if (lo_arg == hi_arg) {
    PF_ASSIGN(DeviceTensor low, call_gpu_op1(b, "min", {flat}));
    PF_ASSIGN(DeviceTensor high, call_gpu_op1(b, "max", {flat}));
    PF_ASSIGN(DeviceTensor equal, call_gpu_op1(b, "eq", {low, high}));
    // 1 where the data hold one value (PyTorch refuses bool operands of sub).
    PF_ASSIGN(DeviceTensor same, as_dtype(b, equal, t));
    PF_ASSIGN(lo, call_gpu_op1(b, "sub", {low, same}));
    PF_ASSIGN(hi, call_gpu_op1(b, "add", {high, same}));
  } else {
    PF_ASSIGN(lo, filled(b, {}, Arg::make_real(lo_arg), t));
    PF_ASSIGN(hi, filled(b, {}, Arg::make_real(hi_arg), t));
  }
  PF_ASSIGN(DeviceTensor edges, bin_edges(b, lo, hi, bins, t));
  PF_ASSIGN(
      DeviceTensor first,
      call_gpu_op1(b, "narrow", {edges, Arg::make_int(0), Arg::make_int(0), Arg::make_int(1)}));
  PF_ASSIGN(
      DeviceTensor last,
      call_gpu_op1(b, "narrow", {edges, Arg::make_int(0), Arg::make_int(bins), Arg::make_int(1)}));
  PF_ASSIGN(DeviceTensor above, call_gpu_op1(b, "ge", {flat, first}));
  PF_ASSIGN(DeviceTensor below, call_gpu_op1(b, "le", {flat, last}));
  PF_ASSIGN(DeviceTensor inside, call_gpu_op1(b, "logical_and", {above, below}));
  PF_ASSIGN(DeviceTensor nan, call_gpu_op1(b, "isnan", {flat}));
  PF_ASSIGN(DeviceTensor counted, call_gpu_op1(b, "logical_or", {inside, nan}));
  PF_ASSIGN(DeviceTensor outside, call_gpu_op1(b, "logical_not", {counted}));
  PF_ASSIGN(DeviceTensor at_or_below,
            call_gpu_op1(b, "bucketize", {flat, edges}, {{"right", Arg::make_bool(true)}}));
  PF_ASSIGN(DeviceTensor bin, call_gpu_op1(b, "sub", {at_or_below, Arg::make_int(1)}));
  PF_ASSIGN(bin, call_gpu_op1(b, "clamp", {bin}, {{"max", Arg::make_int(bins - 1)}}));
  PF_ASSIGN(DeviceTensor kept_bins,
            call_gpu_op1(b, "masked_fill", {bin, outside, Arg::make_int(bins)}));
  PF_ASSIGN(DeviceTensor target,
            call_gpu_op1(b, "masked_fill", {kept_bins, nan, Arg::make_int(0)}));
  PF_ASSIGN(DeviceTensor zeros, filled(b, {bins + 1}, Arg::make_int(0), t));
  PF_ASSIGN(DeviceTensor ones, filled(b, {n}, Arg::make_int(1), t));
  PF_ASSIGN(DeviceTensor counts,
            call_gpu_op1(b, "scatter_add", {zeros, Arg::make_int(0), target, ones}));
  PF_ASSIGN(
      DeviceTensor kept,
      call_gpu_op1(b, "narrow", {counts, Arg::make_int(0), Arg::make_int(0), Arg::make_int(bins)}));
  PF_ASSIGN(DeviceTensor y, materialize(b, kept, t));
  return std::vector<DeviceTensor>{y};
}

}  // namespace

void register_gpu_histc_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"histc", run_histc, float_dtypes()});
}

}  // namespace pf::gpu
