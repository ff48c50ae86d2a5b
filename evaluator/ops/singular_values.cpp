#include "evaluator/ops/singular_values.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace pf {

std::vector<double> singular_values(const double* a, int64_t rows, int64_t cols) {
  // Orthogonalise the columns of an m x n matrix with n <= m (the transpose
  // when there are more columns: the same singular values); they converge
  // to U * diag(sigma), so the values are the column norms. Column-major.
  const bool transpose = cols > rows;
  const int64_t m = transpose ? cols : rows, n = transpose ? rows : cols;
  std::vector<double> u(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      const double v = a[i * cols + j];
      if (!std::isfinite(v)) {
        return std::vector<double>(static_cast<size_t>(n),
                                   std::numeric_limits<double>::quiet_NaN());
      }
      u[static_cast<size_t>(transpose ? i * m + j : j * m + i)] = v;
    }
  }
  auto col = [&](int64_t c) { return u.data() + c * m; };
  constexpr double kEps = 1e-15;
  // Sweeps converge quadratically; 64 bounds a pathological case.
  for (int sweep = 0; sweep < 64; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p + 1 < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        double alpha = 0, beta = 0, gamma = 0;
        const double* up = col(p);
        const double* uq = col(q);
        for (int64_t i = 0; i < m; ++i) {
          alpha += up[i] * up[i];
          beta += uq[i] * uq[i];
          gamma += up[i] * uq[i];
        }
        if (gamma == 0 || std::fabs(gamma) <= kEps * std::sqrt(alpha * beta)) continue;
        rotated = true;
        const double zeta = (beta - alpha) / (2 * gamma);
        const double t = std::copysign(1.0, zeta) / (std::fabs(zeta) + std::hypot(1.0, zeta));
        const double c = 1 / std::sqrt(1 + t * t), s = c * t;
        double* wp = col(p);
        double* wq = col(q);
        for (int64_t i = 0; i < m; ++i) {
          const double xp = wp[i], xq = wq[i];
          wp[i] = c * xp - s * xq;
          wq[i] = s * xp + c * xq;
        }
      }
    }
    if (!rotated) break;
  }
  std::vector<double> sigma(static_cast<size_t>(n));
  for (int64_t c = 0; c < n; ++c) {
    double sum = 0;
    for (int64_t i = 0; i < m; ++i) sum += col(c)[i] * col(c)[i];
    sigma[static_cast<size_t>(c)] = std::sqrt(sum);
  }
  std::sort(sigma.begin(), sigma.end(), std::greater<>());
  return sigma;
}

}  // namespace pf
