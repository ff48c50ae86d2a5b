// The one total order sort, topk, kthvalue, median and quantile share on the
// CPU reference (and the GPU's kernels/sort.cu picks in): NaN ranks above
// every number, as in PyTorch; equal values keep their index order,
// whichever direction. PyTorch leaves the order of unstable ties
// unspecified, so one fixed answer lets the GPU baseline agree exactly.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

namespace pf {

//! The first `k` positions of a group of values in the order: largest first
//! when `descending`.
template <typename V>
std::vector<int64_t> ordered_positions(const std::vector<V>& v, int64_t k, bool descending) {
  std::vector<int64_t> pos(v.size());
  std::iota(pos.begin(), pos.end(), int64_t{0});
  auto is_nan = [](V x) {
    if constexpr (std::is_floating_point_v<V>) {
      return std::isnan(x);
    } else {
      (void)x;
      return false;
    }
  };
  auto before = [&](int64_t a, int64_t b) {
    const V va = v[static_cast<size_t>(a)], vb = v[static_cast<size_t>(b)];
    const bool na = is_nan(va), nb = is_nan(vb);
    if (na || nb) return na && !nb ? descending : (!na && nb ? !descending : false);
    if (va != vb) return descending ? va > vb : va < vb;
    return false;  // stable_sort keeps the index order of equals
  };
  std::stable_sort(pos.begin(), pos.end(), before);
  pos.resize(static_cast<size_t>(k));
  return pos;
}

}  // namespace pf
