// Shapes shared by the pooling families: an input [N, C, *spatial] or
// unbatched [C, *spatial] with 1 or 2 spatial dims, seen as `planes`
// contiguous 2-d planes (1-d as height 1).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "evaluator/ops/layout_util.h"

namespace pf::layout {

struct PoolShape {
  int nd = 2;
  int64_t planes = 0;                 // product of the leading (batch, channel) dims
  int64_t in[2] = {1, 1}, out[2] = {1, 1};  // spatial sizes as 2-d (height, width)
  Shape lead;                         // leading dims as written
  Shape out_shape;
};

//! Copies nd per-dim values into the 2-d slots (1-d uses slot 1, width).
inline void set_spatial(int64_t (&dst)[2], const std::vector<int64_t>& v, int nd) {
  if (nd == 1) {
    dst[1] = v[0];
  } else {
    dst[0] = v[0];
    dst[1] = v[1];
  }
}

inline void set_output(PoolShape& s, const int64_t (&out)[2]) {
  s.out[0] = out[0];
  s.out[1] = out[1];
  s.out_shape = s.lead;
  if (s.nd == 2) s.out_shape.push_back(out[0]);
  s.out_shape.push_back(out[1]);
}

//! Reads parameter 0 (the input) as a pooling input with nd spatial dims.
template <typename T>
Result<PoolShape> pool_shape(const BoundArgs<T>& a, int nd) {
  const Shape& s = shape_of(a.tensor(0));
  size_t n = static_cast<size_t>(nd);
  if (s.size() != n + 1 && s.size() != n + 2) {
    return a.error(0, "expects a " + std::to_string(n + 1) + "-d or " + std::to_string(n + 2) +
                          "-d input, got shape " + shape_str(s));
  }
  PoolShape p;
  p.nd = nd;
  p.lead.assign(s.begin(), s.end() - nd);
  p.planes = shape_numel(p.lead);
  set_spatial(p.in, std::vector<int64_t>(s.end() - nd, s.end()), nd);
  return p;
}

}  // namespace pf::layout
