// kthvalue, median, nanmedian, msort, quantile and nanquantile composed of
// GPU ops already verified on the device: the sort kernel (the CPU
// reference's total order: NaN last, ties by index), a position per row
// computed from the NaN count, gathers; quantile as PyTorch's quantile_impl
// (ranks in the input's dtype, floor/ceil/round, gathers, lerp). The op
// checks (ops/order_statistics.cpp) already ran at type inference.
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/gpu/sorted_rows.h"
#include "evaluator/ops/layout_util.h"

namespace pf::gpu {
namespace {

using Outputs = Result<std::vector<DeviceTensor>>;

// The input to sort along `dim`, and that dim: dim=None (`dim_param` unset
// or None) flattens; a 0-d input becomes one element.
struct SortInput {
  DeviceTensor x;
  int64_t dim = 0;
};

Result<SortInput> sort_input(PlanBuilder& b, const GpuArgs& a, std::optional<size_t> dim_param) {
  const DeviceTensor& x = a.tensor(0);
  if (!dim_param || a.is_none(*dim_param) || x.dim() == 0) {
    PF_ASSIGN(DeviceTensor flat, call_gpu_op1(b, "reshape", {x, int_list({-1})}));
    return SortInput{flat, 0};
  }
  PF_ASSIGN(int64_t dim, layout::dim_arg(a, *dim_param, x.dim()));
  return SortInput{x, dim};
}

// dim=None flattens the whole tensor into one row (sorted_rows.h's limit).
Status check_row(const SortInput& in) {
  return check_sorted_row(in.x.dim() == 0 ? 1 : in.x.shape()[static_cast<size_t>(in.dim)]);
}

// The shape of one position per row: the sorted shape with dim of size 1.
Shape row_shape(const DeviceTensor& sorted, int64_t dim) {
  Shape s = sorted.shape();
  s[static_cast<size_t>(dim)] = 1;
  return s;
}

// A contiguous result read as the op's output shape (the kept size-1 dim
// dropped, or a leading q dim added: the same elements in the same order).
DeviceTensor as_shape(const DeviceTensor& t, const Shape& shape) {
  return DeviceTensor::view_of(t, shape, contiguous_strides(shape), t.offset());
}

Result<DeviceTensor> filled(PlanBuilder& b, const Shape& shape, Arg value, DType dtype) {
  return call_gpu_op1(b, "full", {int_list(shape), std::move(value)},
                      {{"dtype", Arg::make_dtype(dtype)}});
}

// NaNs per row (int64, dim kept); they sort last.
Result<DeviceTensor> nan_count(PlanBuilder& b, const DeviceTensor& sorted, int64_t dim) {
  PF_ASSIGN(DeviceTensor nan, call_gpu_op1(b, "isnan", {sorted}));
  return call_gpu_op1(b, "sum", {nan, int_list({dim}), Arg::make_bool(true)},
                      {{"dtype", Arg::make_dtype(DType::int64)}});
}

enum class Pick : uint8_t { kth, median, nanmedian };

// The position of the pick in each sorted row, as pick_position on the CPU:
// median: n - nans when a row holds NaN, else (n - 1) / 2; nanmedian:
// (n - nans - 1) / 2 truncated; kthvalue: k - 1.
Result<DeviceTensor> pick_positions(PlanBuilder& b, Pick pick, const DeviceTensor& sorted,
                                    int64_t dim, int64_t k) {
  const int64_t n = sorted.shape()[static_cast<size_t>(dim)];
  const Shape rows = row_shape(sorted, dim);
  const int64_t fixed = pick == Pick::kth ? k - 1 : (n - 1) / 2;
  if (pick == Pick::kth || !is_floating(sorted.dtype())) {
    return filled(b, rows, Arg::make_int(fixed), DType::int64);
  }
  PF_ASSIGN(DeviceTensor nans, nan_count(b, sorted, dim));
  PF_ASSIGN(DeviceTensor minus, call_gpu_op1(b, "mul", {nans, Arg::make_int(-1)}));
  if (pick == Pick::nanmedian) {
    PF_ASSIGN(DeviceTensor numbers_less_one, call_gpu_op1(b, "add", {minus, Arg::make_int(n - 1)}));
    return call_gpu_op1(b, "div", {numbers_less_one, Arg::make_int(2)},
                        {{"rounding_mode", Arg::make_string("trunc")}});
  }
  // fixed + (nans > 0) * (n - nans - fixed)
  PF_ASSIGN(DeviceTensor shift, call_gpu_op1(b, "add", {minus, Arg::make_int(n - fixed)}));
  PF_ASSIGN(DeviceTensor any, call_gpu_op1(b, "gt", {nans, Arg::make_int(0)}));
  PF_ASSIGN(DeviceTensor taken, call_gpu_op1(b, "mul", {shift, any}));
  return call_gpu_op1(b, "add", {taken, Arg::make_int(fixed)});
}

GpuOpFn pick_fn(Pick pick, bool whole) {
  return [=](const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) -> Outputs {
    const bool kth = pick == Pick::kth;
    std::optional<size_t> dim_param;
    if (!whole) dim_param = kth ? 2 : 1;
    PF_ASSIGN(SortInput in, sort_input(b, a, dim_param));
    PF_TRY(check_row(in));
    const int64_t k = kth ? a.integer(1).value() : 0;
    PF_ASSIGN(std::vector<DeviceTensor> sorted,
              call_gpu_op(b, "sort", {in.x, Arg::make_int(in.dim)}));
    PF_ASSIGN(DeviceTensor pos, pick_positions(b, pick, sorted[0], in.dim, k));
    PF_ASSIGN(DeviceTensor values,
              call_gpu_op1(b, "gather", {sorted[0], Arg::make_int(in.dim), pos}));
    if (whole) return std::vector<DeviceTensor>{as_shape(values, out[0].shape)};
    PF_ASSIGN(DeviceTensor indices,
              call_gpu_op1(b, "gather", {sorted[1], Arg::make_int(in.dim), pos}));
    return std::vector<DeviceTensor>{as_shape(values, out[0].shape),
                                     as_shape(indices, out[1].shape)};
  };
}

Outputs run_msort(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  if (x.dim() == 0) {
    PF_ASSIGN(DeviceTensor y, materialize(b, x, x.dtype()));
    return std::vector<DeviceTensor>{as_shape(y, out[0].shape)};
  }
  PF_TRY(check_row(SortInput{x, 0}));
  PF_ASSIGN(std::vector<DeviceTensor> sorted, call_gpu_op(b, "sort", {x, Arg::make_int(0)}));
  return std::vector<DeviceTensor>{sorted[0]};
}

// One quantile per row for the 0-d q `q`, as PyTorch's quantile_impl:
// ranks = q * (n - 1), the last position where a row holds NaN (quantile),
// or q * (non-NaN count - 1) clamped at 0 (nanquantile); rounded by the
// interpolation; the values below (and above, for linear and midpoint)
// gathered and lerped.
Result<DeviceTensor> quantile_rows(PlanBuilder& b, const DeviceTensor& sorted, int64_t dim,
                                   const DeviceTensor& q, const std::string& mode,
                                   bool ignore_nan) {
  const int64_t n = sorted.shape()[static_cast<size_t>(dim)];
  const Shape rows = row_shape(sorted, dim);
  DeviceTensor ranks;
  if (ignore_nan) {
    PF_ASSIGN(DeviceTensor nan, call_gpu_op1(b, "isnan", {sorted}));
    PF_ASSIGN(DeviceTensor present, call_gpu_op1(b, "logical_not", {nan}));
    PF_ASSIGN(DeviceTensor count,
              call_gpu_op1(b, "sum", {present, int_list({dim}), Arg::make_bool(true)}));
    PF_ASSIGN(DeviceTensor last, call_gpu_op1(b, "sub", {count, Arg::make_int(1)}));
    PF_ASSIGN(DeviceTensor scaled, call_gpu_op1(b, "mul", {q, last}));
    PF_ASSIGN(ranks, call_gpu_op1(b, "clamp", {scaled}, {{"min", Arg::make_int(0)}}));
  } else {
    PF_ASSIGN(DeviceTensor scaled, call_gpu_op1(b, "mul", {q, Arg::make_int(n - 1)}));
    const DeviceTensor spread =
        DeviceTensor::view_of(scaled, rows, Strides(rows.size(), 0), scaled.offset());
    PF_ASSIGN(DeviceTensor last,
              call_gpu_op1(b, "narrow",
                           {sorted, Arg::make_int(dim), Arg::make_int(n - 1), Arg::make_int(1)}));
    PF_ASSIGN(DeviceTensor any_nan, call_gpu_op1(b, "isnan", {last}));
    PF_ASSIGN(ranks, call_gpu_op1(b, "masked_fill", {spread, any_nan, Arg::make_int(n - 1)}));
  }
  const std::string rounding = mode == "lower"     ? "floor"
                               : mode == "higher"  ? "ceil"
                               : mode == "nearest" ? "round"
                                                   : "";
  if (!rounding.empty()) {
    PF_ASSIGN(ranks, call_gpu_op1(b, rounding, {ranks}));
  }
  PF_ASSIGN(DeviceTensor below, materialize(b, ranks, DType::int64));
  PF_ASSIGN(DeviceTensor low, call_gpu_op1(b, "gather", {sorted, Arg::make_int(dim), below}));
  if (mode != "linear" && mode != "midpoint") return low;
  PF_ASSIGN(DeviceTensor up, call_gpu_op1(b, "ceil", {ranks}));
  PF_ASSIGN(DeviceTensor above, materialize(b, up, DType::int64));
  PF_ASSIGN(DeviceTensor high, call_gpu_op1(b, "gather", {sorted, Arg::make_int(dim), above}));
  if (mode == "midpoint") return call_gpu_op1(b, "lerp", {low, high, Arg::make_real(0.5)});
  PF_ASSIGN(DeviceTensor weights, call_gpu_op1(b, "sub", {ranks, below}));
  return call_gpu_op1(b, "lerp", {low, high, weights});
}

GpuOpFn quantile_fn(bool ignore_nan) {
  return [=](const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) -> Outputs {
    PF_ASSIGN(SortInput in, sort_input(b, a, 2));
    PF_TRY(check_row(in));
    PF_ASSIGN(std::string mode, a.string(4));
    PF_ASSIGN(std::vector<DeviceTensor> sorted,
              call_gpu_op(b, "sort", {in.x, Arg::make_int(in.dim)}));
    const DType t = out[0].dtype;
    std::vector<DeviceTensor> qs;
    if (!a.is_tensor(1)) {
      PF_ASSIGN(DeviceTensor q, filled(b, {}, a.arg(1), t));
      qs.push_back(q);
    } else if (a.tensor(1).dim() == 0) {
      qs.push_back(a.tensor(1));
    } else {
      for (int64_t j = 0; j < a.tensor(1).shape()[0]; ++j) {
        PF_ASSIGN(DeviceTensor q,
                  call_gpu_op1(b, "select", {a.tensor(1), Arg::make_int(0), Arg::make_int(j)}));
        qs.push_back(q);
      }
    }
    const bool lead = a.is_tensor(1) && a.tensor(1).dim() == 1;
    Shape each = out[0].shape;
    if (lead) each.erase(each.begin());
    if (!lead) {
      PF_ASSIGN(DeviceTensor rows, quantile_rows(b, sorted[0], in.dim, qs[0], mode, ignore_nan));
      return std::vector<DeviceTensor>{as_shape(rows, out[0].shape)};
    }
    // Each q's rows copied into its slice of the output (stack along dim 0).
    PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
    const int64_t slice = shape_numel(each);
    for (size_t j = 0; j < qs.size(); ++j) {
      PF_ASSIGN(DeviceTensor rows, quantile_rows(b, sorted[0], in.dim, qs[j], mode, ignore_nan));
      const DeviceTensor dst = DeviceTensor::view_of(y, each, contiguous_strides(each),
                                                     y.offset() + static_cast<int64_t>(j) * slice);
      PF_TRY(copy_into(b, as_shape(rows, each), dst));
    }
    return std::vector<DeviceTensor>{y};
  };
}

}  // namespace

void register_gpu_order_statistics_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"kthvalue", pick_fn(Pick::kth, false), all_dtypes()});
  r.add(GpuOpInfo{"median", pick_fn(Pick::median, true), all_dtypes()});
  r.add(GpuOpInfo{"median_dim", pick_fn(Pick::median, false), all_dtypes()});
  r.add(GpuOpInfo{"nanmedian", pick_fn(Pick::nanmedian, true), all_dtypes()});
  r.add(GpuOpInfo{"nanmedian_dim", pick_fn(Pick::nanmedian, false), all_dtypes()});
  r.add(GpuOpInfo{"msort", run_msort, all_dtypes()});
  r.add(GpuOpInfo{"quantile", quantile_fn(false), float_dtypes()});
  r.add(GpuOpInfo{"nanquantile", quantile_fn(true), float_dtypes()});
}

}  // namespace pf::gpu
