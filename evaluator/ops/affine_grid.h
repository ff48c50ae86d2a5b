// F.affine_grid's base grid, shared by the CPU reference and the GPU
// baseline (which uploads it once and multiplies it by theta in one batched
// GEMM, where PyTorch builds it on every call before its bmm).
#pragma once

#include <cstdint>

#include "evaluator/core/tensor.h"

namespace pf {

//! [h * w, 3] rows (x, y, 1): x runs over w, y over h, each
//! linspace(-1, 1) (times (n - 1) / n without align_corners; 0 for n = 1),
//! rounded to `dtype` as PyTorch computes it there.
Tensor affine_base_grid(DType dtype, int64_t h, int64_t w, bool align_corners);

}  // namespace pf
