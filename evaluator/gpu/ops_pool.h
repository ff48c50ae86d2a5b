// Adaptive pooling as a building block: interpolate's `area` mode is
// PyTorch's adaptive_avg_pool{1,2,3}d (ops_interpolate.cpp).
#pragma once

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/plan_builder.h"

namespace pf::gpu {

//! Adaptive average (or max) pooling of the last `nd` (1 to 3) dims of
//! `input` into a fresh tensor of type `out`: a mean over those dims when
//! every output size is 1 (average only, as PyTorch), else the adaptive
//! kernel on a contiguous copy. Max pooling writes its int64 argmax to
//! `indices` when given (return_indices=True; contiguous, the output's
//! shape), else to scratch.
Result<DeviceTensor> add_adaptive_pool(PlanBuilder& b, const DeviceTensor& input,
                                       const TensorType& out, int nd, bool is_max,
                                       const DeviceTensor* indices = nullptr);

}  // namespace pf::gpu
