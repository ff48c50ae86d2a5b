// scatter_reduce composed of GPU ops already verified on the device.
// sum, prod and mean as PyTorch's own composite: input (or, without
// include_self, input with the identity where an index lands) through the
// scatter kernels (scatter_add; scatter with reduce='multiply'), mean
// dividing by counts scattered the same way (zero counts as one, floor
// division for integers; halves combine in float32 and round once).
// amax/amin have no scatter kernel: every index element is compared with
// every position of dim (eq against arange, a [index..., dim size] bool),
// src where equal and the identity elsewhere is reduced over the index's dim
// with amax/amin, and the positions some index reached take that (combined
// with input's value under include_self). That costs index elements x dim
// size in memory and work (PyTorch: one atomic per index element).
#include <limits>

#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/layout_util.h"

namespace pf::gpu {
namespace {

using Outputs = Result<std::vector<DeviceTensor>>;

// The identity of amax (lowest) or amin (highest) in dtype t.
Arg extremum_identity(DType t, bool take_max) {
  const double inf = std::numeric_limits<double>::infinity();
  if (is_floating(t)) return Arg::make_real(take_max ? -inf : inf);
  switch (t) {
    case DType::uint8:
      return Arg::make_int(take_max ? 0 : 255);
    case DType::int8:
      return Arg::make_int(take_max ? -128 : 127);
    case DType::int16:
      return Arg::make_int(take_max ? -32768 : 32767);
    case DType::int32:
      return Arg::make_int(take_max ? std::numeric_limits<int32_t>::min()
                                    : std::numeric_limits<int32_t>::max());
    default:
      return Arg::make_int(take_max ? std::numeric_limits<int64_t>::min()
                                    : std::numeric_limits<int64_t>::max());
  }
}

// `t` (of shape `shape` without axis `axis`) seen with a stride-0 axis of
// size `size` inserted at `axis`.
DeviceTensor with_axis(const DeviceTensor& t, const Shape& shape, int64_t axis, int64_t size) {
  Shape s = shape;
  Strides st(t.strides().begin(), t.strides().begin() + static_cast<int64_t>(shape.size()));
  s.insert(s.begin() + axis, size);
  st.insert(st.begin() + axis, 0);
  return DeviceTensor::view_of(t, s, st, t.offset());
}

Outputs run_extremum(const GpuArgs& a, PlanBuilder& b, int64_t dim, bool take_max,
                     bool include_self) {
  const DeviceTensor& x = a.tensor(0);
  const DeviceTensor& index = a.tensor(2);
  const DeviceTensor& src = a.tensor(3);
  const Shape& is = index.shape();
  const int64_t n = x.shape()[static_cast<size_t>(dim)];
  PF_ASSIGN(DeviceTensor ids, call_gpu_op1(b, "arange", {Arg::make_int(0), Arg::make_int(n)}));
  Shape u = is;
  u.insert(u.begin() + dim + 1, n);
  Strides along(u.size(), 0);
  along[static_cast<size_t>(dim + 1)] = 1;
  const DeviceTensor positions = DeviceTensor::view_of(ids, u, along, ids.offset());
  PF_ASSIGN(DeviceTensor hit, call_gpu_op1(b, "eq", {with_axis(index, is, dim + 1, n), positions}));
  const DeviceTensor src_region = DeviceTensor::view_of(src, is, src.strides(), src.offset());
  PF_ASSIGN(DeviceTensor candidates, call_gpu_op1(b, "where",
                                                  {hit, with_axis(src_region, is, dim + 1, n),
                                                   extremum_identity(x.dtype(), take_max)}));
  PF_ASSIGN(DeviceTensor reduced,
            call_gpu_op1(b, take_max ? "amax" : "amin", {candidates, int_list({dim})}));
  PF_ASSIGN(DeviceTensor reached, call_gpu_op1(b, "any", {hit, Arg::make_int(dim)}));
  // The part of input the index spans (all of dim), where reduced lands.
  const DeviceTensor region = DeviceTensor::view_of(x, reduced.shape(), x.strides(), x.offset());
  DeviceTensor combined = reduced;
  if (include_self) {
    PF_ASSIGN(combined, call_gpu_op1(b, take_max ? "maximum" : "minimum", {region, reduced}));
  }
  PF_ASSIGN(DeviceTensor placed, call_gpu_op1(b, "where", {reached, combined, region}));
  PF_ASSIGN(DeviceTensor y, materialize(b, x, x.dtype()));
  PF_TRY(copy_into(b, placed, DeviceTensor::view_of(y, reduced.shape(), y.strides(), y.offset())));
  return std::vector<DeviceTensor>{y};
}

Outputs run_scatter_reduce(const GpuArgs& a, const std::vector<TensorType>&, PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, x.dim()));
  PF_ASSIGN(std::string reduce, a.string(4));
  PF_ASSIGN(bool include_self, a.boolean(5));
  if (reduce == "amax" || reduce == "amin") {
    return run_extremum(a, b, dim, reduce == "amax", include_self);
  }
  const Arg d = Arg::make_int(dim);
  const DeviceTensor& index = a.tensor(2);
  // Half inputs combine in float32 and round once, as the CPU reference
  // (rounding at every atomic update would depend on their order).
  const DType compute = composite_compute_dtype(x.dtype());
  PF_ASSIGN(DeviceTensor xc, as_dtype(b, x, compute));
  PF_ASSIGN(DeviceTensor src, as_dtype(b, a.tensor(3), compute));
  auto result = [&](const DeviceTensor& y) -> Outputs {
    PF_ASSIGN(DeviceTensor rounded, as_dtype(b, y, x.dtype()));
    return std::vector<DeviceTensor>{rounded};
  };
  DeviceTensor base = xc;
  DeviceTensor reached;
  if (!include_self) {
    PF_ASSIGN(DeviceTensor none,
              call_gpu_op1(b, "zeros_like", {xc}, {{"dtype", Arg::make_dtype(DType::int64)}}));
    PF_ASSIGN(DeviceTensor marks, call_gpu_op1(b, "scatter", {none, d, index, Arg::make_int(1)}));
    PF_ASSIGN(reached, call_gpu_op1(b, "ne", {marks, Arg::make_int(0)}));
    PF_ASSIGN(base,
              call_gpu_op1(b, "where", {reached, Arg::make_int(reduce == "prod" ? 1 : 0), xc}));
  }
  if (reduce == "prod") {
    PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "scatter", {base, d, index, src},
                                           {{"reduce", Arg::make_string("multiply")}}));
    return result(y);
  }
  PF_ASSIGN(DeviceTensor sums, call_gpu_op1(b, "scatter_add", {base, d, index, src}));
  if (reduce == "sum") return result(sums);
  PF_ASSIGN(DeviceTensor start, call_gpu_op1(b, "ones_like", {xc}));
  if (!include_self) {
    PF_ASSIGN(start, call_gpu_op1(b, "where", {reached, Arg::make_int(0), start}));
  }
  PF_ASSIGN(DeviceTensor ones, call_gpu_op1(b, "ones_like", {src}));
  PF_ASSIGN(DeviceTensor counts, call_gpu_op1(b, "scatter_add", {start, d, index, ones}));
  PF_ASSIGN(DeviceTensor empty, call_gpu_op1(b, "eq", {counts, Arg::make_int(0)}));
  PF_ASSIGN(DeviceTensor divisor,
            call_gpu_op1(b, "masked_fill", {counts, empty, Arg::make_int(1)}));
  std::vector<std::pair<std::string, CallArg>> rounding;
  if (!is_floating(x.dtype())) rounding.emplace_back("rounding_mode", Arg::make_string("floor"));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "div", {sums, divisor}, rounding));
  return result(y);
}

}  // namespace

void register_gpu_scatter_reduce_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"scatter_reduce", run_scatter_reduce, all_dtypes()});
}

}  // namespace pf::gpu
