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

int64_t last_pow2(int64_t v) {
  int64_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

// A serial thread can take PF_REDUCE_OUT_VEC consecutive outputs with one
// vector load per step when those outputs are consecutive, vector-aligned
// input elements for every output group and every reduced index: the kept
// fastest dim is contiguous and a multiple of the vector, every other
// stride (kept or reduced) keeps the alignment, and so does the address.
bool outputs_vectorise(const ReduceGeometry& g, const Layout& kept, const Layout& red) {
  constexpr int64_t kVec = PF_REDUCE_OUT_VEC;
  if (kept.shape.empty() || kept.strides[0].back() != 1 || kept.shape.back() % kVec != 0)
    return false;
  if (g.in_address % (static_cast<uint64_t>(kVec) * g.in_size) != 0) return false;
  for (size_t d = 0; d + 1 < kept.shape.size(); ++d) {
    if (kept.strides[0][d] % kVec != 0) return false;
  }
  for (int64_t s : red.shape.empty() ? Strides{} : red.strides[0]) {
    if (s % kVec != 0) return false;
  }
  return true;
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
  constexpr int64_t kWarp = 32;
  constexpr int64_t kSerialThreads = 128;
  constexpr int64_t kSlotBytes = 32;  // PF_REDUCE_ACC_BYTES
  if (c.inner) {
    // A row shorter than a warp gets a power-of-two slice of one, several
    // rows per warp (PyTorch's block_width = min(last_pow2(dim0), warp)),
    // instead of a whole warp with most lanes idle.
    const int64_t row_threads = ceil_div(std::max<int64_t>(c.n_red, 1), work);
    c.bx = static_cast<int>(row_threads < kWarp
                                ? last_pow2(row_threads)
                                : std::clamp<int64_t>(next_pow2(row_threads), kWarp, kMaxThreads));
    c.by = static_cast<int>(std::clamp<int64_t>(
        next_pow2(c.n_out), std::max<int64_t>(1, kWarp / c.bx), kMaxThreads / c.bx));
    c.grid_x = ceil_div(c.n_out, c.by);
    c.smem_bytes = c.bx > kWarp ? c.bx / kWarp * c.by * kSlotBytes : 0;
  } else {
    c.bx = static_cast<int>(std::clamp<int64_t>(next_pow2(c.n_out), 1, kWarp));
    c.by = static_cast<int>(std::clamp<int64_t>(next_pow2(c.n_red), 1, kMaxThreads / c.bx));
    // A reduction shorter than what one thread keeps (16 values: a sum over
    // a dim of 2) is folded by one thread per output. PyTorch's
    // setReduceConfig folds up to 16 * block_height values per thread, but
    // measured on the H200 a mean over 49 - 196 tokens for a few hundred
    // outputs ran 1.4 - 1.8x slower folded than split over the block's
    // threads (layer_norm-mean-dropout: 19.6 against 2.7 us).
    c.serial = c.n_red < 16;
    if (c.serial) {
      c.out_vec = outputs_vectorise(g, kc, rc) ? PF_REDUCE_OUT_VEC : 1;
      c.bx = static_cast<int>(
          std::clamp<int64_t>(next_pow2(ceil_div(c.n_out, c.out_vec)), kWarp, kSerialThreads));
      c.by = 1;
      c.grid_x = ceil_div(ceil_div(c.n_out, c.out_vec), c.bx);
    } else {
      c.grid_x = ceil_div(c.n_out, c.bx);
      c.smem_bytes = int64_t{c.bx} * c.by * kSlotBytes;
    }
  }
  // Split a long reduction over blocks when the outputs alone cannot fill the GPU.
  const int64_t per_pass = c.inner ? int64_t{c.bx} * work : int64_t{c.by};  // 1 when serial
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
