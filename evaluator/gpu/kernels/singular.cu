// pf-dtypes: float32 float64
// pf-requires: pf_ops_abi.cuh
// linalg.matrix_norm from singular values ('nuc', 2, -2; ops_reduction.cpp):
// one thread per matrix runs the CPU reference's one-sided Jacobi
// (evaluator/ops/singular_values.cpp: same sweeps, same order) in double on
// its own scratch copy. PyTorch calls cuSOLVER; the op bounds a matrix's
// smaller side (statistics.cpp), and GraphNet's norms are over small
// matrices, where a thread per matrix is enough. float16/bfloat16 are
// refused by the op, as PyTorch refuses them.

extern "C" __global__ void __launch_bounds__(128) pf_singular_norm(const PfSingularNormParams p) {
  const long long g = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (g >= p.batch) return;
  const int rows = p.rows, cols = p.cols;
  // Columns of an m x n matrix with n <= m (the transpose of a wide one),
  // column-major.
  const bool transpose = cols > rows;
  const int m = transpose ? cols : rows, n = transpose ? rows : cols;
  const long long size = static_cast<long long>(rows) * cols;
  const scalar_t* a = reinterpret_cast<const scalar_t*>(p.in) + g * size;
  double* u = reinterpret_cast<double*>(p.scratch) + g * size;
  bool finite = true;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      const double v = static_cast<double>(a[static_cast<long long>(i) * cols + j]);
      finite = finite && v - v == 0;  // false for inf and NaN
      u[transpose ? static_cast<long long>(i) * m + j : static_cast<long long>(j) * m + i] = v;
    }
  }
  double result = 0;
  if (!finite) {
    result = pf_nan<double>();
  } else {
    const double eps = 1e-15;
    for (int sweep = 0; sweep < 64; ++sweep) {
      bool rotated = false;
      for (int q0 = 0; q0 + 1 < n; ++q0) {
        for (int q1 = q0 + 1; q1 < n; ++q1) {
          double* up = u + static_cast<long long>(q0) * m;
          double* uq = u + static_cast<long long>(q1) * m;
          double alpha = 0, beta = 0, gamma = 0;
          for (int i = 0; i < m; ++i) {
            alpha += up[i] * up[i];
            beta += uq[i] * uq[i];
            gamma += up[i] * uq[i];
          }
          if (gamma == 0 || fabs(gamma) <= eps * sqrt(alpha * beta)) continue;
          rotated = true;
          const double zeta = (beta - alpha) / (2 * gamma);
          const double t = copysign(1.0, zeta) / (fabs(zeta) + hypot(1.0, zeta));
          const double c = 1 / sqrt(1 + t * t), s = c * t;
          for (int i = 0; i < m; ++i) {
            const double xp = up[i], xq = uq[i];
            up[i] = c * xp - s * xq;
            uq[i] = s * xp + c * xq;
          }
        }
      }
      if (!rotated) break;
    }
    for (int col = 0; col < n; ++col) {
      const double* w = u + static_cast<long long>(col) * m;
      double sum = 0;
      for (int i = 0; i < m; ++i) sum += w[i] * w[i];
      const double sigma = sqrt(sum);
      if (p.mode == PF_SINGULAR_NUCLEAR) {
        result += sigma;
      } else if (col == 0 || (p.mode == PF_SINGULAR_LARGEST ? sigma > result : sigma < result)) {
        result = sigma;
      }
    }
  }
  if (p.out_double) {
    reinterpret_cast<double*>(p.out)[g] = result;
  } else {
    reinterpret_cast<float*>(p.out)[g] = static_cast<float>(result);
  }
}
