// pf-dtypes: float16 bfloat16 float32 float64
// pf-requires: pf_ops_abi.cuh
// interpolate over contiguous [planes, d, h, w] (ops_interpolate.cpp), as
// PyTorch's NCHW kernels compute it:
//   pf_upsample_nearest: one thread per output element; the source index is
//     min(floor(o * scale), in - 1) in float (nearest-exact: (o + 0.5) * scale);
//   pf_upsample_linear / pf_upsample_cubic: one thread per output position
//     looping over every plane (upsample_{linear1d,bilinear2d,trilinear3d,
//     bicubic2d}_out_frame), coordinates and weights in opmath; grid.y splits
//     the planes when there are too few positions to fill the GPU (each
//     element is computed the same way, only by another thread); when input
//     and output sizes are equal they copy, as PyTorch's kernels do (the
//     weights would be exactly 1 and 0: same values, a fraction of the time).
//   pf_upsample_aa: antialias=True (upsample_gen2d_aa_out_frame): one thread
//     per output position looping over the planes, each row of the window
//     resampled along the width, then the rows along the height. The tap
//     tables come from the host (the CPU reference's), in opmath, and the
//     row sums stay in opmath; PyTorch rounds weights and row sums to the
//     input dtype, so for float16/bfloat16 it can sit an ulp or two further
//     from the float64 value than we do.

__device__ __forceinline__ int pf_nearest_index(const PfInterpParams& p, int s, int o) {
  const float scale = static_cast<float>(p.scale[s]);
  const float v = p.mode == PF_INTERP_NEAREST_EXACT ? (static_cast<float>(o) + 0.5f) * scale
                                                    : static_cast<float>(o) * scale;
  const int i = static_cast<int>(floorf(v));
  return min(i, p.in_size[s] - 1);
}

extern "C" __global__ void __launch_bounds__(512) pf_upsample_nearest(const PfInterpParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n)) return;
  unsigned int q = pf_div(p.out_div[2], idx);
  const int ow = static_cast<int>(idx - q * p.out_div[2].divisor);
  unsigned int r = pf_div(p.out_div[1], q);
  const int oh = static_cast<int>(q - r * p.out_div[1].divisor);
  const unsigned int plane = pf_div(p.out_div[0], r);
  const int od = static_cast<int>(r - plane * p.out_div[0].divisor);
  const int id = pf_nearest_index(p, 0, od), ih = pf_nearest_index(p, 1, oh), iw = pf_nearest_index(p, 2, ow);
  const long long src =
      ((static_cast<long long>(plane) * p.in_size[0] + id) * p.in_size[1] + ih) * p.in_size[2] + iw;
  reinterpret_cast<scalar_t*>(p.out)[idx] = reinterpret_cast<const scalar_t*>(p.in)[src];
}

// area_pixel_compute_source_index for the interpolating modes.
__device__ __forceinline__ opmath_t pf_source_index(opmath_t scale, int o, bool align, bool cubic) {
  if (align) return scale * static_cast<opmath_t>(o);
  const opmath_t src = scale * (static_cast<opmath_t>(o) + opmath_t(0.5)) - opmath_t(0.5);
  return (!cubic && src < opmath_t(0)) ? opmath_t(0) : src;
}

struct pf_linear_tap {
  int i0, step;  // i1 = i0 + step
  opmath_t l0, l1;
};

__device__ __forceinline__ pf_linear_tap pf_linear(const PfInterpParams& p, int s, int o) {
  const opmath_t real = pf_source_index(static_cast<opmath_t>(p.scale[s]), o, p.align_corners != 0, false);
  pf_linear_tap t;
  t.i0 = static_cast<int>(real);
  t.step = t.i0 < p.in_size[s] - 1 ? 1 : 0;
  t.l1 = real - static_cast<opmath_t>(t.i0);
  t.l0 = opmath_t(1) - t.l1;
  return t;
}

extern "C" __global__ void __launch_bounds__(1024) pf_upsample_linear(const PfInterpParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n)) return;
  const unsigned int q = pf_div(p.out_div[2], idx);
  const int ow = static_cast<int>(idx - q * p.out_div[2].divisor);
  const int od = static_cast<int>(pf_div(p.out_div[1], q));
  const int oh = static_cast<int>(q - static_cast<unsigned int>(od) * p.out_div[1].divisor);
  const long long H = p.in_size[1], W = p.in_size[2];
  const long long in_plane = p.in_size[0] * H * W;
  const long long out_plane = p.n;
  if (p.in_size[0] == p.out_size[0] && H == p.out_size[1] && W == p.out_size[2]) {
    const scalar_t* src = reinterpret_cast<const scalar_t*>(p.in) + idx;
    scalar_t* dst = reinterpret_cast<scalar_t*>(p.out) + idx;
    for (long long c = blockIdx.y; c < p.planes; c += gridDim.y) dst[c * out_plane] = src[c * in_plane];
    return;
  }
  const pf_linear_tap td = pf_linear(p, 0, od), th = pf_linear(p, 1, oh), tw = pf_linear(p, 2, ow);
  const long long r00 = (td.i0 * H + th.i0) * W + tw.i0;
  const long long dh = th.step * W, dd = td.step * H * W;
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in);
  scalar_t* out = reinterpret_cast<scalar_t*>(p.out) + idx;
  for (long long c = blockIdx.y; c < p.planes; c += gridDim.y) {
    const scalar_t* x = in + c * in_plane + r00;
    const opmath_t v0 =
        th.l0 * (tw.l0 * pf_cast<opmath_t>(x[0]) + tw.l1 * pf_cast<opmath_t>(x[tw.step])) +
        th.l1 * (tw.l0 * pf_cast<opmath_t>(x[dh]) + tw.l1 * pf_cast<opmath_t>(x[dh + tw.step]));
    opmath_t v = v0;
    if (p.in_size[0] > 1 || p.out_size[0] > 1) {
      const scalar_t* y = x + dd;
      const opmath_t v1 =
          th.l0 * (tw.l0 * pf_cast<opmath_t>(y[0]) + tw.l1 * pf_cast<opmath_t>(y[tw.step])) +
          th.l1 * (tw.l0 * pf_cast<opmath_t>(y[dh]) + tw.l1 * pf_cast<opmath_t>(y[dh + tw.step]));
      v = td.l0 * v0 + td.l1 * v1;
    }
    out[c * out_plane] = pf_cast<scalar_t>(v);
  }
}

__device__ __forceinline__ opmath_t pf_cubic1(opmath_t x, opmath_t A) {
  return ((A + 2) * x - (A + 3)) * x * x + 1;
}
__device__ __forceinline__ opmath_t pf_cubic2(opmath_t x, opmath_t A) {
  return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
}

// The four cubic-convolution weights of taps -1..2 around offset t (A = -0.75).
__device__ __forceinline__ void pf_cubic_weights(opmath_t t, opmath_t (&w)[4]) {
  const opmath_t A = opmath_t(-0.75);
  w[0] = pf_cubic2(t + 1, A);
  w[1] = pf_cubic1(t, A);
  w[2] = pf_cubic1(1 - t, A);
  w[3] = pf_cubic2(2 - t, A);
}

extern "C" __global__ void __launch_bounds__(1024) pf_upsample_cubic(const PfInterpParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n)) return;
  const unsigned int q = pf_div(p.out_div[2], idx);
  const int ow = static_cast<int>(idx - q * p.out_div[2].divisor);
  const int oh = static_cast<int>(q);
  const int H = p.in_size[1], W = p.in_size[2];
  const long long plane = static_cast<long long>(H) * W;
  if (H == p.out_size[1] && W == p.out_size[2]) {
    const scalar_t* src = reinterpret_cast<const scalar_t*>(p.in) + idx;
    scalar_t* dst = reinterpret_cast<scalar_t*>(p.out) + idx;
    for (long long c = blockIdx.y; c < p.planes; c += gridDim.y) dst[c * p.n] = src[c * plane];
    return;
  }
  const bool align = p.align_corners != 0;
  const opmath_t ry = pf_source_index(static_cast<opmath_t>(p.scale[1]), oh, align, true);
  const opmath_t rx = pf_source_index(static_cast<opmath_t>(p.scale[2]), ow, align, true);
  const opmath_t fy = pf_floor(ry), fx = pf_floor(rx);
  const int iy = static_cast<int>(fy), ix = static_cast<int>(fx);
  opmath_t wy[4], wx[4];
  pf_cubic_weights(ry - fy, wy);
  pf_cubic_weights(rx - fx, wx);
  int rows[4], cols[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    rows[k] = min(max(iy - 1 + k, 0), H - 1) * W;
    cols[k] = min(max(ix - 1 + k, 0), W - 1);
  }
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in);
  scalar_t* out = reinterpret_cast<scalar_t*>(p.out) + idx;
  for (long long c = blockIdx.y; c < p.planes; c += gridDim.y) {
    const scalar_t* x = in + c * plane;
    opmath_t v = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const scalar_t* row = x + rows[k];
      const opmath_t r = wx[0] * pf_cast<opmath_t>(row[cols[0]]) + wx[1] * pf_cast<opmath_t>(row[cols[1]]) +
                         wx[2] * pf_cast<opmath_t>(row[cols[2]]) + wx[3] * pf_cast<opmath_t>(row[cols[3]]);
      v += wy[k] * r;
    }
    out[c * p.n] = pf_cast<scalar_t>(v);
  }
}

extern "C" __global__ void __launch_bounds__(256) pf_upsample_aa(const PfInterpAaParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n)) return;
  const unsigned int oh = pf_div(p.ow_div, idx);
  const unsigned int ow = idx - oh * p.ow_div.divisor;
  const int* hspan = reinterpret_cast<const int*>(p.span[0]) + 2 * oh;
  const int* wspan = reinterpret_cast<const int*>(p.span[1]) + 2 * ow;
  const opmath_t* wy =
      reinterpret_cast<const opmath_t*>(p.weights[0]) + static_cast<long long>(oh) * p.max_taps[0];
  const opmath_t* wx =
      reinterpret_cast<const opmath_t*>(p.weights[1]) + static_cast<long long>(ow) * p.max_taps[1];
  const long long H = p.in_size[0], W = p.in_size[1];
  const long long out_plane = static_cast<long long>(p.out_size[0]) * p.out_size[1];
  for (long long plane = blockIdx.y; plane < p.planes; plane += gridDim.y) {
    const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in) + plane * H * W + wspan[0];
    opmath_t acc = 0;
    for (int y = 0; y < hspan[1]; ++y) {
      const scalar_t* row = in + (hspan[0] + y) * W;
      opmath_t t = 0;
      for (int x = 0; x < wspan[1]; ++x) t += wx[x] * pf_cast<opmath_t>(row[x]);
      acc += wy[y] * t;
    }
    reinterpret_cast<scalar_t*>(p.out)[plane * out_plane + idx] = pf_cast<scalar_t>(acc);
  }
}
