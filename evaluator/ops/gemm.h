// The float64 matrix product at the core of the CPU reference's matmul,
// linear and convolution.
#pragma once

#include <cstdint>

namespace pf::layout {

//! C[m, n] = A[m, k] · Bt[n, k]^T, all row-major and contiguous, summing in
//! float64. Cache-blocked and vectorised (AVX2 + FMA when the CPU has them,
//! chosen at run time); the summation order differs from a naive loop only
//! at float64 rounding level.
void gemm_nt(const double* a, const double* bt, double* c, int64_t m, int64_t n, int64_t k);

}  // namespace pf::layout
