// pf-dtypes: float16 bfloat16 float32 float64
// pf-requires: pf_grid_abi.cuh
// F.grid_sample, 2-d (ops_grid_sample.cpp), after PyTorch's
// grid_sampler_2d_kernel (GridSampler.cu): one thread per output position
// (n, h, w) reads its grid point once, turns it into source coordinates
// (unnormalize, then clip or reflect by the padding mode; a non-finite or
// huge coordinate becomes -100, out of bounds, as safe_downgrade_to_int_range)
// and loops over the channels: bilinear sums the in-bounds corners with
// their areas as weights, nearest takes the pixel at the rounded (half to
// even) coordinates or 0 outside. Coordinates and sums in opmath (PyTorch
// computes the coordinates in the input dtype for float16/bfloat16).

__device__ __forceinline__ opmath_t pf_gs_clip(opmath_t c, int size) {
  const opmath_t hi = static_cast<opmath_t>(size - 1);
  c = c > opmath_t(0) ? c : opmath_t(0);
  return c < hi ? c : hi;
}

// reflect_coordinates: c reflected into [twice_low / 2, twice_high / 2].
__device__ __forceinline__ opmath_t pf_gs_reflect(opmath_t c, int twice_low, int twice_high) {
  if (twice_low == twice_high) return opmath_t(0);
  const opmath_t low = static_cast<opmath_t>(twice_low) / opmath_t(2);
  const opmath_t span = static_cast<opmath_t>(twice_high - twice_low) / opmath_t(2);
  c = pf_fabs(c - low);
  const opmath_t extra = pf_fmod(c, span);
  const long long flips = static_cast<long long>(pf_floor(c / span));
  return flips % 2 == 0 ? extra + low : span - extra + low;
}

__device__ __forceinline__ opmath_t pf_gs_source(opmath_t c, int size, int padding, bool align) {
  c = align ? (c + opmath_t(1)) / opmath_t(2) * static_cast<opmath_t>(size - 1)
            : ((c + opmath_t(1)) * static_cast<opmath_t>(size) - opmath_t(1)) / opmath_t(2);
  if (padding == PF_GRID_PAD_BORDER) {
    c = pf_gs_clip(c, size);
  } else if (padding == PF_GRID_PAD_REFLECTION) {
    c = align ? pf_gs_reflect(c, 0, 2 * (size - 1)) : pf_gs_reflect(c, -1, 2 * size - 1);
    c = pf_gs_clip(c, size);
  }
  const bool finite = c == c && pf_fabs(c) != pf_infinity<opmath_t>();
  if (!finite || c > opmath_t(2147483646) || c < opmath_t(-2147483647)) return opmath_t(-100);
  return c;
}

__device__ __forceinline__ bool pf_gs_inside(long long y, long long x, int h, int w) {
  return y >= 0 && y < h && x >= 0 && x < w;
}

extern "C" __global__ void __launch_bounds__(256) pf_grid_sample_2d(const PfGridSampleParams p) {
  const long long idx = static_cast<long long>(blockIdx.x) * 256 + threadIdx.x;
  if (idx >= p.n) return;
  const long long w = idx % p.out_w;
  const long long h = (idx / p.out_w) % p.out_h;
  const long long n = idx / (static_cast<long long>(p.out_w) * p.out_h);
  const scalar_t* g = reinterpret_cast<const scalar_t*>(p.grid) + idx * 2;
  const bool align = p.align_corners != 0;
  const opmath_t ix = pf_gs_source(pf_cast<opmath_t>(g[0]), p.in_w, p.padding, align);
  const opmath_t iy = pf_gs_source(pf_cast<opmath_t>(g[1]), p.in_h, p.padding, align);
  const long long in_plane = static_cast<long long>(p.in_h) * p.in_w;
  const long long out_plane = static_cast<long long>(p.out_h) * p.out_w;
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in) + n * p.channels * in_plane;
  scalar_t* out = reinterpret_cast<scalar_t*>(p.out) + n * p.channels * out_plane + h * p.out_w + w;
  if (p.mode == PF_GRID_NEAREST) {
    const long long x = static_cast<long long>(pf_nearbyint(ix));
    const long long y = static_cast<long long>(pf_nearbyint(iy));
    const bool inside = pf_gs_inside(y, x, p.in_h, p.in_w);
    for (int c = 0; c < p.channels; ++c) {
      out[c * out_plane] = inside ? in[c * in_plane + y * p.in_w + x] : pf_cast<scalar_t>(opmath_t(0));
    }
    return;
  }
  const long long x0 = static_cast<long long>(pf_floor(ix));
  const long long y0 = static_cast<long long>(pf_floor(iy));
  const long long x1 = x0 + 1, y1 = y0 + 1;
  const opmath_t fx0 = static_cast<opmath_t>(x0), fx1 = static_cast<opmath_t>(x1);
  const opmath_t fy0 = static_cast<opmath_t>(y0), fy1 = static_cast<opmath_t>(y1);
  const opmath_t nw = (fx1 - ix) * (fy1 - iy);
  const opmath_t ne = (ix - fx0) * (fy1 - iy);
  const opmath_t sw = (fx1 - ix) * (iy - fy0);
  const opmath_t se = (ix - fx0) * (iy - fy0);
  const bool in_nw = pf_gs_inside(y0, x0, p.in_h, p.in_w), in_ne = pf_gs_inside(y0, x1, p.in_h, p.in_w);
  const bool in_sw = pf_gs_inside(y1, x0, p.in_h, p.in_w), in_se = pf_gs_inside(y1, x1, p.in_h, p.in_w);
  for (int c = 0; c < p.channels; ++c) {
    const scalar_t* plane = in + c * in_plane;
    opmath_t acc = opmath_t(0);
    if (in_nw) acc += pf_cast<opmath_t>(plane[y0 * p.in_w + x0]) * nw;
    if (in_ne) acc += pf_cast<opmath_t>(plane[y0 * p.in_w + x1]) * ne;
    if (in_sw) acc += pf_cast<opmath_t>(plane[y1 * p.in_w + x0]) * sw;
    if (in_se) acc += pf_cast<opmath_t>(plane[y1 * p.in_w + x1]) * se;
    out[c * out_plane] = pf_cast<scalar_t>(acc);
  }
}
