// torch.mode composed of GPU ops already verified on the device: the sort
// kernel (the reference's order: NaN last, ties by index), run starts where
// a sorted value differs from the one before (NaN differs from everything),
// the running run length from a cummax of those starts, the first position
// where it reaches the row's longest run (argmax of a bool: the first), and
// gathers of the sorted values and indices there; the last element of a
// run of ties holds the value's last index, as the CPU reference
// (ops/mode.cpp).
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

DeviceTensor as_shape(const DeviceTensor& t, const Shape& shape) {
  return DeviceTensor::view_of(t, shape, contiguous_strides(shape), t.offset());
}

Result<DeviceTensor> part(PlanBuilder& b, const DeviceTensor& t, int64_t dim, int64_t start,
                          int64_t length) {
  return call_gpu_op1(b, "narrow",
                      {t, Arg::make_int(dim), Arg::make_int(start), Arg::make_int(length)});
}

// The sorted position (dim kept, size 1) of the end of each row's first
// longest run; rows of n >= 2 values.
Result<DeviceTensor> mode_positions(PlanBuilder& b, const DeviceTensor& sorted, int64_t dim) {
  const int64_t n = sorted.shape()[static_cast<size_t>(dim)];
  PF_ASSIGN(DeviceTensor later, part(b, sorted, dim, 1, n - 1));
  PF_ASSIGN(DeviceTensor earlier, part(b, sorted, dim, 0, n - 1));
  // Positions 1..n-1: a run starts where the value differs from the one before.
  PF_ASSIGN(DeviceTensor starts, call_gpu_op1(b, "ne", {later, earlier}));
  PF_ASSIGN(DeviceTensor ids, call_gpu_op1(b, "arange", {Arg::make_int(1), Arg::make_int(n)}));
  Strides along(static_cast<size_t>(sorted.dim()), 0);
  along[static_cast<size_t>(dim)] = 1;
  Shape tail = sorted.shape();
  tail[static_cast<size_t>(dim)] = n - 1;
  const DeviceTensor positions = DeviceTensor::view_of(ids, tail, along, ids.offset());
  PF_ASSIGN(DeviceTensor start_at, call_gpu_op1(b, "mul", {positions, starts}));
  PF_ASSIGN(std::vector<DeviceTensor> run_start,
            call_gpu_op(b, "cummax", {start_at, Arg::make_int(dim)}));
  // Run length so far at positions 1..n-1 (position 0's is 1).
  PF_ASSIGN(DeviceTensor since, call_gpu_op1(b, "sub", {positions, run_start[0]}));
  PF_ASSIGN(DeviceTensor length, call_gpu_op1(b, "add", {since, Arg::make_int(1)}));
  PF_ASSIGN(DeviceTensor longest,
            call_gpu_op1(b, "amax", {length, int_list({dim}), Arg::make_bool(true)}));
  PF_ASSIGN(DeviceTensor reaches, call_gpu_op1(b, "eq", {length, longest}));
  // argmax takes no bool (as PyTorch); 0/1 as uint8 keeps the first maximum.
  PF_ASSIGN(DeviceTensor marks, as_dtype(b, reaches, DType::uint8));
  PF_ASSIGN(DeviceTensor first,
            call_gpu_op1(b, "argmax", {marks, Arg::make_int(dim), Arg::make_bool(true)}));
  PF_ASSIGN(DeviceTensor shifted, call_gpu_op1(b, "add", {first, Arg::make_int(1)}));
  // All runs of one: the first value (position 0) wins.
  PF_ASSIGN(DeviceTensor repeated, call_gpu_op1(b, "gt", {longest, Arg::make_int(1)}));
  return call_gpu_op1(b, "mul", {shifted, repeated});
}

Outputs run_mode(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  DeviceTensor x = a.tensor(0);
  if (x.dim() == 0) x = DeviceTensor::view_of(x, {1}, {1}, x.offset());
  PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, x.dim()));
  if (x.numel() == 0) {
    PF_ASSIGN(DeviceTensor values, b.allocate(out[0]));
    PF_ASSIGN(DeviceTensor indices, b.allocate(out[1]));
    return std::vector<DeviceTensor>{values, indices};
  }
  const int64_t n = x.shape()[static_cast<size_t>(dim)];
  PF_TRY(check_sorted_row(n));
  PF_ASSIGN(std::vector<DeviceTensor> sorted, call_gpu_op(b, "sort", {x, Arg::make_int(dim)}));
  DeviceTensor pos;
  if (n == 1) {
    Shape rows = x.shape();
    rows[static_cast<size_t>(dim)] = 1;
    PF_ASSIGN(pos, call_gpu_op1(b, "full", {int_list(rows), Arg::make_int(0)},
                                {{"dtype", Arg::make_dtype(DType::int64)}}));
  } else {
    PF_ASSIGN(pos, mode_positions(b, sorted[0], dim));
  }
  PF_ASSIGN(DeviceTensor values, call_gpu_op1(b, "gather", {sorted[0], Arg::make_int(dim), pos}));
  PF_ASSIGN(DeviceTensor indices, call_gpu_op1(b, "gather", {sorted[1], Arg::make_int(dim), pos}));
  return std::vector<DeviceTensor>{as_shape(values, out[0].shape), as_shape(indices, out[1].shape)};
}

}  // namespace

void register_gpu_mode_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"mode", run_mode, all_dtypes()});
}

}  // namespace pf::gpu
