// Matrix products through cuBLAS / cuBLASLt for the matmul family, set up
// while the plan is built (descriptors, heuristics) so running it only
// submits the call. PyTorch's defaults: fp32 with CUBLAS_COMPUTE_32F and the
// default math mode (no TF32), fp16/bf16 with fp32 accumulation, fp64 with
// CUBLAS_COMPUTE_64F; cublasGemmEx for one matrix, the strided-batched form
// for batches; a 1-d bias with alpha = beta = 1 uses cuBLASLt's bias
// epilogue (PyTorch's gemm_and_bias for addmm / linear).
#pragma once

#include <cuda.h>

#include "common/result.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/plan_builder.h"

namespace pf::gpu {

//! A row-major logical matrix [rows, cols] in device memory (element strides).
struct MatrixView {
  CUdeviceptr ptr = 0;
  int64_t row_stride = 0;
  int64_t col_stride = 1;
  int64_t batch_stride = 0;
};

//! True when cuBLAS can read the matrix as is: rows contiguous (col_stride 1,
//! row_stride >= cols) or columns contiguous (a transposed view).
bool gemm_compatible(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride);

struct GemmSpec {
  DType dtype = DType::float32;
  int64_t m = 1, n = 1, k = 1, batch = 1;
  MatrixView a;       // [m, k] per batch
  MatrixView b;       // [k, n] per batch
  CUdeviceptr c = 0;  // [m, n] row-major contiguous per batch, batch stride m * n
  double alpha = 1, beta = 0;
  //! [n], contiguous, for add_gemm_bias_epilogue only.
  const DeviceTensor* bias = nullptr;
};

//! Adds C = alpha * A @ B + beta * C. Both operands must be gemm_compatible
//! (callers materialise otherwise); spec.bias must be null.
Status add_gemm(PlanBuilder& b, const GemmSpec& spec);

//! Adds C = alpha * A @ B + bias through cuBLASLt's bias epilogue when
//! cuBLASLt offers an algorithm for it (one fp32/fp16/bf16 matrix); false
//! when it does not, and the caller copies the bias and uses add_gemm.
Result<bool> add_gemm_bias_epilogue(PlanBuilder& b, const GemmSpec& spec);

}  // namespace pf::gpu
