// The longest row the GPU baseline sorts (kernels/sort.cu picks in
// O(length^2) per row, one thread a row: a whole flattened tensor or a long
// row would run for minutes; PyTorch runs a segmented radix sort). Shared by
// the ops composed of that sort (order statistics, mode).
#pragma once

#include <cstdint>
#include <string>

#include "common/result.h"

namespace pf::gpu {

inline constexpr int64_t kMaxSortedRow = 8192;

//! Unsupported past kMaxSortedRow values per row.
inline Status check_sorted_row(int64_t n) {
  if (n <= kMaxSortedRow) return ok_status();
  return make_error(ErrorCode::unsupported,
                    "order statistics over more than " + std::to_string(kMaxSortedRow) +
                        " values per row have no GPU baseline (got " + std::to_string(n) + ")");
}

}  // namespace pf::gpu
