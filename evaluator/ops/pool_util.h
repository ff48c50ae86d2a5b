// Shapes shared by the pooling families: an input [N, C, *spatial] or
// unbatched [C, *spatial] with 1, 2 or 3 spatial dims, seen as `planes`
// contiguous 3-d volumes (2-d as depth 1, 1-d as depth and height 1).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "evaluator/ops/layout_util.h"

namespace pf::layout {

struct PoolShape {
  int nd = 2;
  int64_t planes = 0;  // product of the leading (batch, channel) dims
  // Spatial sizes as 3-d (depth, height, width).
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  Shape lead;  // leading dims as written
  Shape out_shape;

  int64_t in_volume() const { return in[0] * in[1] * in[2]; }
  int64_t out_volume() const { return out[0] * out[1] * out[2]; }
};

//! Copies nd per-dim values into the last nd of the 3-d slots.
inline void set_spatial(int64_t (&dst)[3], const std::vector<int64_t>& v, int nd) {
  for (int d = 0; d < nd; ++d) dst[3 - nd + d] = v[static_cast<size_t>(d)];
}

inline void set_output(PoolShape& s, const int64_t (&out)[3]) {
  s.out_shape = s.lead;
  for (int d = 0; d < 3; ++d) {
    s.out[d] = out[d];
    if (d >= 3 - s.nd) s.out_shape.push_back(out[d]);
  }
}

//! The overload of a max pool whose return_indices argument (positional
//! `position`, or the keyword) is true: the op `with_indices`, which returns
//! (values, indices).
inline OverloadFn return_indices_overload(std::string with_indices, size_t position) {
  return [with_indices = std::move(with_indices), position](
             std::string_view, std::vector<Arg>& positional,
             std::vector<std::pair<std::string, Arg>>& keywords) {
    const Arg* flag = positional.size() > position ? &positional[position] : nullptr;
    for (const auto& [key, value] : keywords) {
      if (key == "return_indices") flag = &value;
    }
    const bool wanted = flag != nullptr && flag->kind == Arg::Kind::boolean && flag->b;
    return wanted ? with_indices : std::string();
  };
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
