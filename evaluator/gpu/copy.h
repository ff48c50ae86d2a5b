// Strided copies with dtype conversion (kernels/copy.cu), the building block
// of casts, contiguous(), clone() and every op that needs a materialised
// operand (as PyTorch's .contiguous() / .to() inside ops).
#pragma once

#include "common/result.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/plan_builder.h"

namespace pf::gpu {

//! dst[i] = convert(src[i]) for every element; same shapes, any strides and
//! dtypes. One kernel: vectorised when both are contiguous and aligned.
Status copy_into(PlanBuilder& b, const DeviceTensor& src, const DeviceTensor& dst);

//! A fresh contiguous copy of t in `dtype`.
Result<DeviceTensor> materialize(PlanBuilder& b, const DeviceTensor& t, DType dtype);

//! t itself when contiguous, else a contiguous copy (PyTorch's .contiguous()).
Result<DeviceTensor> contiguous(PlanBuilder& b, const DeviceTensor& t);

//! t itself when of `dtype`, else a converted copy.
Result<DeviceTensor> as_dtype(PlanBuilder& b, const DeviceTensor& t, DType dtype);

//! The dtype an op composed of other ops computes in for a result of `out`:
//! float32 for float16/bfloat16 (PyTorch's kernels compute those in float and
//! round once), else `out` itself.
DType composite_compute_dtype(DType out);

//! Elements per thread of the vectorised copy kernels (kernels' PF_COPY_VEC_FOR).
int64_t copy_vector_width(DType src, DType dst);

}  // namespace pf::gpu
