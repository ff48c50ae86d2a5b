#include "evaluator/ops/gemm.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace pf::layout {
namespace {

// Four doubles as one value: a GCC/Clang vector, lowered to whatever SIMD the
// target has (two SSE2 registers on baseline x86-64).
using Double4 = double __attribute__((vector_size(32)));

// c[r][0..cols) += sum_p a_r[p] * panel[p][0..cols) for `rows` (1..4) rows of a.
inline __attribute__((always_inline)) void panel_kernel_body(const double* const* a, int rows,
                                                             const double* panel, int64_t len,
                                                             double* c, int64_t ldc, int64_t cols) {
  Double4 acc[4] = {};
  if (rows == 4) {
    for (int64_t p = 0; p < len; ++p) {
      Double4 b;
      std::memcpy(&b, panel + 4 * p, sizeof b);
      acc[0] += a[0][p] * b;
      acc[1] += a[1][p] * b;
      acc[2] += a[2][p] * b;
      acc[3] += a[3][p] * b;
    }
  } else {
    for (int r = 0; r < rows; ++r) {
      for (int64_t p = 0; p < len; ++p) {
        Double4 b;
        std::memcpy(&b, panel + 4 * p, sizeof b);
        acc[r] += a[r][p] * b;
      }
    }
  }
  for (int r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < cols; ++j) c[r * ldc + j] += acc[r][j];
  }
}

using PanelKernel = void (*)(const double* const*, int, const double*, int64_t, double*, int64_t,
                             int64_t);

void panel_kernel_generic(const double* const* a, int rows, const double* panel, int64_t len,
                          double* c, int64_t ldc, int64_t cols) {
  panel_kernel_body(a, rows, panel, len, c, ldc, cols);
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same kernel compiled for AVX2 + FMA (4x faster), chosen at run time so
// the binaries still start on CPUs without them.
__attribute__((target("avx2,fma"))) void panel_kernel_avx2(const double* const* a, int rows,
                                                           const double* panel, int64_t len,
                                                           double* c, int64_t ldc, int64_t cols) {
  panel_kernel_body(a, rows, panel, len, c, ldc, cols);
}
#endif

PanelKernel pick_panel_kernel() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return panel_kernel_avx2;
#endif
  return panel_kernel_generic;
}

}  // namespace

void gemm_nt(const double* a, const double* bt, double* c, int64_t m, int64_t n, int64_t k) {
  // Four columns of C at a time: their rows of Bt are packed into a panel of
  // four doubles per p, so each a[i][p] multiplies four columns in one vector
  // operation; blocks of kDepth keep the panel and A's rows in cache.
  constexpr int64_t kDepth = 256;
  std::fill(c, c + m * n, 0.0);
  static const PanelKernel kernel = pick_panel_kernel();
  std::vector<double> panel(static_cast<size_t>(4 * std::min(k, kDepth)));
  for (int64_t p0 = 0; p0 < k; p0 += kDepth) {
    int64_t len = std::min(kDepth, k - p0);
    for (int64_t j0 = 0; j0 < n; j0 += 4) {
      int64_t cols = std::min<int64_t>(4, n - j0);
      for (int64_t p = 0; p < len; ++p) {
        for (int64_t j = 0; j < 4; ++j) panel[4 * p + j] = j < cols ? bt[(j0 + j) * k + p0 + p] : 0.0;
      }
      for (int64_t i = 0; i < m; i += 4) {
        int rows = static_cast<int>(std::min<int64_t>(4, m - i));
        const double* rows_a[4];
        for (int r = 0; r < rows; ++r) rows_a[r] = a + (i + r) * k + p0;
        kernel(rows_a, rows, panel.data(), len, c + i * n + j0, n, cols);
      }
    }
  }
}

}  // namespace pf::layout
