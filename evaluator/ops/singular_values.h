// Singular values of a small dense matrix for the CPU reference (matrix
// norms 'nuc', 2 and -2): one-sided Jacobi in double.
#pragma once

#include <cstdint>
#include <vector>

namespace pf {

//! The min(rows, cols) singular values of the row-major `rows` x `cols`
//! matrix `a`, largest first. A non-finite entry makes every value NaN
//! (PyTorch's LAPACK path refuses such a matrix at run time).
std::vector<double> singular_values(const double* a, int64_t rows, int64_t cols);

}  // namespace pf
