#include "evaluator/gpu/reduce_plan.h"

#include <algorithm>

#include "evaluator/gpu/offset_calc.h"

namespace pf::gpu {
namespace {

int64_t next_pow2(int64_t v) {
  int64_t p = 1;
  while (p < v) p *= 2;
  return p;
}

int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

}  // namespace

Result<ReduceConfig> plan_reduce_launch(const ReduceGeometry& g) {
  ReduceConfig c;
  Shape kept, red;
  Strides kept_in, red_in;
  for (size_t d = 0; d < g.shape.size(); ++d) {
    (g.reduced[d] ? red : kept).push_back(g.shape[d]);
    (g.reduced[d] ? red_in : kept_in).push_back(g.strides[d]);
  }
  c.n_out = shape_numel(kept);
  c.n_red = shape_numel(red);
  if (c.n_out * std::max<int64_t>(c.n_red, 1) >= (int64_t{1} << 31)) {
    return make_error(ErrorCode::unsupported,
                      "reductions over 2^31 or more elements are not supported");
  }
  // No output: the caller launches nothing.
  if (c.n_out == 0) return c;
  // A reduction over a zero-size dim folds nothing, so every output is the
  // op's identity (sum 0, prod 1, mean NaN...); ops without one (amax, max)
  // were refused by shape inference, as PyTorch refuses them.
  if (c.n_red == 0) {
    red.clear();
    red_in.clear();
  }
  Strides out_strides = contiguous_strides(kept);
  PF_ASSIGN(c.out_calc, make_offset_calc(Layout{kept, {out_strides, kept_in, out_strides}},
                                         {g.out_size, g.in_size, 8}));
  PF_ASSIGN(c.red_calc,
            make_offset_calc(Layout{red, {Strides(red.size(), 0), red_in}}, {1, g.in_size}));

  // Inner mode when the reduced dims hold the input's fastest dim.
  Layout rc = coalesce(Layout{red, {red_in}});
  Layout kc = coalesce(Layout{kept, {kept_in}});
  int64_t red_fast = rc.shape.empty() ? INT64_MAX : rc.strides[0].back();
  int64_t kept_fast = kc.shape.empty() ? INT64_MAX : kc.strides[0].back();
  c.inner = c.n_out == 1 || (c.n_red > 1 && red_fast < kept_fast);

  int64_t work = 1;
  if (c.inner && rc.shape.size() == 1 && red_fast == 1 && g.vec > 1 &&
      g.in_address % (static_cast<uint64_t>(g.vec) * g.in_size) == 0) {
    bool aligned = true;
    for (int64_t s : kc.strides.empty() ? Strides{} : kc.strides[0])
      aligned = aligned && s % g.vec == 0;
    if (aligned && c.n_red >= g.vec) {
      c.vectorize = true;
      work = g.vec;
    }
  }
  constexpr int64_t kMaxThreads = 512;  // PF_REDUCE_MAX_THREADS (reduce.cuh)
  if (c.inner) {
    c.bx =
        static_cast<int>(std::clamp<int64_t>(next_pow2(ceil_div(c.n_red, work)), 32, kMaxThreads));
    c.by = static_cast<int>(std::clamp<int64_t>(next_pow2(c.n_out), 1, kMaxThreads / c.bx));
    c.grid_x = ceil_div(c.n_out, c.by);
  } else {
    c.bx = static_cast<int>(std::clamp<int64_t>(next_pow2(c.n_out), 1, 32));
    c.by = static_cast<int>(std::clamp<int64_t>(next_pow2(c.n_red), 1, kMaxThreads / c.bx));
    c.grid_x = ceil_div(c.n_out, c.bx);
  }
  // Split a long reduction over blocks when the outputs alone cannot fill the GPU.
  const int64_t per_pass = c.inner ? int64_t{c.bx} * work : int64_t{c.by};
  const int64_t values_per_thread = ceil_div(std::max<int64_t>(c.n_red, 1), per_pass);
  const int64_t target_blocks = 4 * int64_t{g.sm_count};
  c.red_per_block = std::max<int64_t>(c.n_red, 1);
  if (c.grid_x < target_blocks && values_per_thread > 16) {
    int64_t gy =
        std::min({ceil_div(target_blocks, c.grid_x), values_per_thread / 16, int64_t{65535}});
    c.red_per_block = ceil_div(ceil_div(c.n_red, gy), per_pass) * per_pass;
    c.grid_y = ceil_div(c.n_red, c.red_per_block);
  }
  return c;
}

}  // namespace pf::gpu
