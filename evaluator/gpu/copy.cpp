#include "evaluator/gpu/copy.h"

#include <algorithm>

#include "evaluator/gpu/elementwise.h"
#include "evaluator/gpu/movement.h"
#include "evaluator/gpu/offset_calc.h"

namespace pf::gpu {

int64_t copy_vector_width(DType src, DType dst) {
  size_t widest = std::max(dtype_size(src), dtype_size(dst));
  return std::min<int64_t>(8, static_cast<int64_t>(16 / widest));
}

Status copy_into(PlanBuilder& b, const DeviceTensor& src, const DeviceTensor& dst) {
  if (src.shape() != dst.shape()) {
    return make_error(ErrorCode::internal, "copy of " + tensor_type_str(src.type()) + " into " +
                                               tensor_type_str(dst.type()));
  }
  b.use(src);
  b.use(dst);
  const int64_t n = src.numel();
  if (n == 0) return ok_status();
  PfCopyParams p{};
  p.out = dst.data_ptr();
  p.in = src.data_ptr();
  p.n = n;
  p.in_dtype = static_cast<int>(src.dtype());
  const int64_t vec = copy_vector_width(src.dtype(), dst.dtype());
  if (vectorizable(src, dst.shape(), vec) && vectorizable(dst, dst.shape(), vec)) {
    std::string kernel = std::string("pf_copy_from_") + dtype_name(src.dtype()) + "_vec";
    return b.add_kernel("copy.cu", dst.dtype(), kernel,
                        linear_launch(n, PF_EW_THREADS * vec, PF_EW_THREADS), p);
  }
  Layout layout{dst.shape(), {dst.strides(), src.strides()}};
  if (src.dtype() == dst.dtype() && dst.is_contiguous()) {
    // Rows that stay contiguous in the source (a slice, a permute keeping the
    // last dim) move in 16-byte units over the coalesced dims instead of
    // element by element.
    const Layout c = coalesce(layout);
    if (!c.shape.empty()) {
      PF_ASSIGN(bool wide,
                add_wide_copy(b, DeviceTensor::view_of(src, c.shape, c.strides[1], src.offset()),
                              DeviceTensor::view_of(dst, c.shape, c.strides[0], dst.offset())));
      if (wide) return ok_status();
    }
  }
  PF_ASSIGN(p.oc, make_offset_calc(layout, {dst.element_size(), src.element_size()}));
  return b.add_kernel("copy.cu", dst.dtype(), "pf_copy_strided",
                      linear_launch(n, int64_t{PF_EW_THREADS} * PF_EW_STRIDED_WORK, PF_EW_THREADS),
                      p);
}

Result<DeviceTensor> materialize(PlanBuilder& b, const DeviceTensor& t, DType dtype) {
  PF_ASSIGN(DeviceTensor out, b.allocate(TensorType{dtype, t.shape()}));
  PF_TRY(copy_into(b, t, out));
  return out;
}

Result<DeviceTensor> contiguous(PlanBuilder& b, const DeviceTensor& t) {
  if (t.is_contiguous()) return t;
  return materialize(b, t, t.dtype());
}

Result<DeviceTensor> as_dtype(PlanBuilder& b, const DeviceTensor& t, DType dtype) {
  if (t.dtype() == dtype) return t;
  return materialize(b, t, dtype);
}

DType composite_compute_dtype(DType out) {
  return out == DType::float16 || out == DType::bfloat16 ? DType::float32 : out;
}

}  // namespace pf::gpu
