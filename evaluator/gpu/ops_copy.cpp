// Ops that copy or alias exactly when PyTorch does: casts (to, type_as and
// the method casts: the input itself when the dtype already matches and no
// copy is asked for), contiguous, clone, the reshape family (a view when
// the strides allow it, else a contiguous copy) and the shuffles
// (pixel_shuffle, pixel_unshuffle, channel_shuffle: reshape, permute and one
// contiguous copy, as PyTorch runs them).
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/shuffle_plan.h"

namespace pf::gpu {
namespace {

// The input itself when `out` matches its dtype and no copy is forced.
Result<std::vector<DeviceTensor>> cast_or_alias(PlanBuilder& b, const DeviceTensor& x,
                                                const TensorType& out, bool force_copy) {
  if (x.dtype() == out.dtype && !force_copy) return std::vector<DeviceTensor>{x};
  PF_ASSIGN(DeviceTensor y, materialize(b, x, out.dtype));
  return std::vector<DeviceTensor>{y};
}

Result<std::vector<DeviceTensor>> run_to(const GpuArgs& a, const std::vector<TensorType>& out,
                                         PlanBuilder& b) {
  PF_ASSIGN(bool copy, a.boolean(3));
  return cast_or_alias(b, a.tensor(0), out[0], copy);
}

Result<std::vector<DeviceTensor>> run_cast(const GpuArgs& a, const std::vector<TensorType>& out,
                                           PlanBuilder& b) {
  return cast_or_alias(b, a.tensor(0), out[0], false);
}

Result<std::vector<DeviceTensor>> run_contiguous(const GpuArgs& a, const std::vector<TensorType>&,
                                                 PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor y, contiguous(b, a.tensor(0)));
  return std::vector<DeviceTensor>{y};
}

Result<std::vector<DeviceTensor>> run_clone(const GpuArgs& a, const std::vector<TensorType>&,
                                            PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor y, materialize(b, a.tensor(0), a.tensor(0).dtype()));
  return std::vector<DeviceTensor>{y};
}

// reshape semantics: a view when layout::view_strides allows, else a copy.
Result<std::vector<DeviceTensor>> run_reshape(const GpuArgs& a, const std::vector<TensorType>& out,
                                              PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  const Shape& shape = out[0].shape;
  if (auto strides = layout::view_strides(x.shape(), x.strides(), shape)) {
    return std::vector<DeviceTensor>{DeviceTensor::view_of(x, shape, *strides, x.offset())};
  }
  PF_ASSIGN(DeviceTensor c, materialize(b, x, x.dtype()));
  return std::vector<DeviceTensor>{DeviceTensor::view_of(c, shape, contiguous_strides(shape), 0)};
}

Result<std::vector<DeviceTensor>> run_shuffle(const GpuArgs& a, const std::vector<TensorType>&,
                                              PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(ShufflePlan p, shuffle_plan(a, x.shape()));
  DeviceTensor split;
  if (auto strides = layout::view_strides(x.shape(), x.strides(), p.split)) {
    split = DeviceTensor::view_of(x, p.split, *strides, x.offset());
  } else {
    PF_ASSIGN(DeviceTensor c, materialize(b, x, x.dtype()));
    split = DeviceTensor::view_of(c, p.split, contiguous_strides(p.split), 0);
  }
  Shape shape;
  Strides strides;
  for (int64_t d : p.perm) {
    shape.push_back(split.shape()[d]);
    strides.push_back(split.strides()[d]);
  }
  PF_ASSIGN(
      DeviceTensor y,
      materialize(b, DeviceTensor::view_of(split, shape, strides, split.offset()), x.dtype()));
  return std::vector<DeviceTensor>{DeviceTensor::view_of(y, p.out, contiguous_strides(p.out), 0)};
}

}  // namespace

void register_gpu_copy_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"to", run_to, all_dtypes()});
  r.add(GpuOpInfo{"type_as", run_cast, all_dtypes()});
  for (const char* name :
       {"float", "half", "bfloat16", "double", "int", "long", "short", "char", "byte", "bool"}) {
    r.add(GpuOpInfo{name, run_cast, all_dtypes()});
  }
  r.add(GpuOpInfo{"contiguous", run_contiguous, all_dtypes()});
  r.add(GpuOpInfo{"clone", run_clone, all_dtypes()});
  for (const char* name : {"reshape", "flatten", "unflatten", "reshape_as"}) {
    r.add(GpuOpInfo{name, run_reshape, all_dtypes()});
  }
  for (const char* name : {"pixel_shuffle", "pixel_unshuffle", "channel_shuffle"}) {
    r.add(GpuOpInfo{name, run_shuffle, all_dtypes()});
  }
}

}  // namespace pf::gpu
