// pf-dtypes: float16 bfloat16 float32 float64
// Normalisation (ops_norm.cpp): layer_norm / rms_norm as one row-per-block
// kernel (PyTorch's vectorized_layer_norm_kernel: 128 threads, Welford in
// opmath, 16-byte loads when aligned); group / instance / batch norm as a
// moments kernel (Welford per stat group) and a per-channel transform.

typedef typename pf_opmath<scalar_t>::type facc_t;

struct pf_welford {
  facc_t mean;
  facc_t m2;
  facc_t n;
};

__device__ __forceinline__ pf_welford pf_welford_add(pf_welford a, facc_t x) {
  a.n += facc_t(1);
  const facc_t delta = x - a.mean;
  a.mean += delta / a.n;
  a.m2 += delta * (x - a.mean);
  return a;
}

__device__ __forceinline__ pf_welford pf_welford_combine(pf_welford a, pf_welford b) {
  if (a.n == facc_t(0)) return b;
  if (b.n == facc_t(0)) return a;
  const facc_t n = a.n + b.n;
  const facc_t delta = b.mean - a.mean;
  const facc_t nb_over_n = b.n / n;
  return pf_welford{a.mean + delta * nb_over_n, a.m2 + b.m2 + delta * delta * a.n * nb_over_n, n};
}

// Block-wide Welford (or sum of squares in .m2 for rms) combine; every thread gets the result.
__device__ __forceinline__ pf_welford pf_block_welford(pf_welford w, bool rms) {
  __shared__ pf_welford shared[32];
  const int tid = threadIdx.x + threadIdx.y * blockDim.x;
  const int lane = tid % 32, warp = tid / 32, warps = (blockDim.x * blockDim.y + 31) / 32;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    pf_welford other{__shfl_xor_sync(0xffffffffu, w.mean, o), __shfl_xor_sync(0xffffffffu, w.m2, o),
                     __shfl_xor_sync(0xffffffffu, w.n, o)};
    w = rms ? pf_welford{0, w.m2 + other.m2, w.n + other.n} : pf_welford_combine(w, other);
  }
  __syncthreads();
  if (lane == 0) shared[warp] = w;
  __syncthreads();
  w = shared[0];
  for (int i = 1; i < warps; ++i) {
    w = rms ? pf_welford{0, w.m2 + shared[i].m2, w.n + shared[i].n} : pf_welford_combine(w, shared[i]);
  }
  return w;
}

__device__ __forceinline__ facc_t pf_param_at(unsigned long long base, int dtype, long long i) {
  const int size = dtype == PF_TAG_FLOAT64 ? 8 : dtype == PF_TAG_FLOAT32 ? 4 : 2;
  return pf_load_dyn<facc_t>(reinterpret_cast<const char*>(base) + i * size, dtype);
}

extern "C" __global__ void __launch_bounds__(128) pf_layer_norm(const PfNormParams p) {
  constexpr int N = PF_VEC;
  const long long row = blockIdx.x;
  const int tid = threadIdx.x, threads = blockDim.x;
  const scalar_t* x = reinterpret_cast<const scalar_t*>(p.in) + row * p.cols;
  scalar_t* y = reinterpret_cast<scalar_t*>(p.out) + row * p.cols;
  const bool rms = p.rms != 0;
  pf_welford w{0, 0, 0};
  if (p.vectorize) {
    // Unrolled so several 16-byte loads are in flight per thread: a short row
    // (one row of 3072) is bound by memory latency, not bandwidth.
#pragma unroll 4
    for (long long c = static_cast<long long>(tid) * N; c < p.cols; c += static_cast<long long>(threads) * N) {
      pf_vec<scalar_t, N> v = *reinterpret_cast<const pf_vec<scalar_t, N>*>(x + c);
#pragma unroll
      for (int j = 0; j < N; ++j) {
        facc_t f = pf_cast<facc_t>(v.v[j]);
        w = rms ? pf_welford{0, w.m2 + f * f, w.n + facc_t(1)} : pf_welford_add(w, f);
      }
    }
  } else {
#pragma unroll 4
    for (long long c = tid; c < p.cols; c += threads) {
      facc_t f = pf_cast<facc_t>(x[c]);
      w = rms ? pf_welford{0, w.m2 + f * f, w.n + facc_t(1)} : pf_welford_add(w, f);
    }
  }
  w = pf_block_welford(w, rms);
  const facc_t mean = rms ? facc_t(0) : w.mean;
  const facc_t var = w.m2 / static_cast<facc_t>(p.cols);
  const facc_t rstd = pf_rsqrt(var + static_cast<facc_t>(p.eps));
  // The output pass as PyTorch's: 16-byte loads of x, weight and bias when
  // the parameters have the input's dtype and are aligned (same arithmetic as
  // the scalar path below, so both give the same bits).
  const bool vec_params = (!p.weight || (p.weight_dtype == PF_DTYPE && p.weight % 16 == 0)) &&
                          (!p.bias || (p.bias_dtype == PF_DTYPE && p.bias % 16 == 0));
  if (p.vectorize && vec_params) {
    const scalar_t* gamma = reinterpret_cast<const scalar_t*>(p.weight);
    const scalar_t* beta = reinterpret_cast<const scalar_t*>(p.bias);
#pragma unroll 2
    for (long long c = static_cast<long long>(tid) * N; c < p.cols; c += static_cast<long long>(threads) * N) {
      const pf_vec<scalar_t, N> xv = *reinterpret_cast<const pf_vec<scalar_t, N>*>(x + c);
      pf_vec<scalar_t, N> gv, bv, yv;
      if (gamma) gv = *reinterpret_cast<const pf_vec<scalar_t, N>*>(gamma + c);
      if (beta) bv = *reinterpret_cast<const pf_vec<scalar_t, N>*>(beta + c);
#pragma unroll
      for (int j = 0; j < N; ++j) {
        facc_t v = (pf_cast<facc_t>(xv.v[j]) - mean) * rstd;
        if (gamma) v *= pf_cast<facc_t>(gv.v[j]);
        if (beta) v += pf_cast<facc_t>(bv.v[j]);
        yv.v[j] = pf_cast<scalar_t>(v);
      }
      *reinterpret_cast<pf_vec<scalar_t, N>*>(y + c) = yv;
    }
    return;
  }
  for (long long c = tid; c < p.cols; c += threads) {
    facc_t v = (pf_cast<facc_t>(x[c]) - mean) * rstd;
    if (p.weight) v *= pf_param_at(p.weight, p.weight_dtype, c);
    if (p.bias) v += pf_param_at(p.bias, p.bias_dtype, c);
    y[c] = pf_cast<scalar_t>(v);
  }
}

extern "C" __global__ void __launch_bounds__(512) pf_norm_moments(const PfNormParams p) {
  const long long g = blockIdx.x;
  const int tid = threadIdx.x, threads = blockDim.x;
  const scalar_t* base = reinterpret_cast<const scalar_t*>(p.in) + g * p.chunk_len;
  pf_welford w{0, 0, 0};
  if (p.chunk_len >= threads) {
    for (long long j = 0; j < p.chunks; ++j) {
      const scalar_t* chunk = base + j * p.chunk_stride;
      for (long long i = tid; i < p.chunk_len; i += threads) w = pf_welford_add(w, pf_cast<facc_t>(chunk[i]));
    }
  } else if (p.chunk_len == 1) {
    // Per-channel statistics of (N, C) (batch norm over a 2-d input): one
    // element per chunk, so the threads split the chunks, not the chunk.
    for (long long j = tid; j < p.chunks; j += threads) w = pf_welford_add(w, pf_cast<facc_t>(base[j * p.chunk_stride]));
  } else {
    // Short chunks (N, C, L) with small L: threads split chunks x elements.
    const long long total = p.chunks * p.chunk_len;
    for (long long k = tid; k < total; k += threads) {
      const long long j = k / p.chunk_len;
      w = pf_welford_add(w, pf_cast<facc_t>(base[j * p.chunk_stride + (k - j * p.chunk_len)]));
    }
  }
  w = pf_block_welford(w, false);
  if (tid == 0) {
    const facc_t var = w.n > facc_t(0) ? w.m2 / w.n : pf_nan<facc_t>();
    const facc_t mean = w.n > facc_t(0) ? w.mean : pf_nan<facc_t>();
    pf_store_dyn(reinterpret_cast<char*>(p.mean) + g * sizeof(facc_t), p.mean_dtype, mean);
    pf_store_dyn(reinterpret_cast<char*>(p.rstd) + g * sizeof(facc_t), p.rstd_dtype,
                 pf_rsqrt(var + static_cast<facc_t>(p.eps)));
  }
}

// One channel's transform. With running statistics (inference batch norm)
// the factor weight / sqrt(var + eps) is formed in double and rounded once,
// and each element costs one fma: rounding 1/sqrt, the product with it and the
// one with the weight separately left float32 results a few ulps off, past
// PyTorch's own accuracy where large normalised values cancel against the
// bias or a residual (real r3d_18 inputs). Computed statistics apply rstd and
// the weight as before.
struct pf_norm_channel {
  facc_t mean, scale, w, b;
  bool fused;
};

__device__ __forceinline__ float pf_fma_acc(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double pf_fma_acc(double a, double b, double c) { return __fma_rn(a, b, c); }

__device__ __forceinline__ pf_norm_channel pf_norm_channel_at(const PfNormParams& p, long long s,
                                                               long long c) {
  pf_norm_channel k;
  k.mean = pf_param_at(p.mean, p.mean_dtype, s);
  const facc_t r = pf_param_at(p.rstd, p.rstd_dtype, s);
  k.w = p.weight ? pf_param_at(p.weight, p.weight_dtype, c) : facc_t(1);
  k.b = p.bias ? pf_param_at(p.bias, p.bias_dtype, c) : facc_t(0);
  k.fused = p.running != 0;
  k.scale = k.fused ? static_cast<facc_t>(__ddiv_rn(static_cast<double>(k.w),
                                                    __dsqrt_rn(static_cast<double>(r) + p.eps)))
                    : r;
  return k;
}

__device__ __forceinline__ facc_t pf_norm_apply(const pf_norm_channel& k, facc_t x) {
  if (k.fused) return pf_fma_acc(x - k.mean, k.scale, k.b);
  return (x - k.mean) * k.scale * k.w + k.b;
}

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_norm_transform(const PfNormParams p) {
  unsigned int idx = blockIdx.x * (PF_EW_THREADS * PF_EW_STRIDED_WORK) + threadIdx.x;
  const unsigned int n = static_cast<unsigned int>(p.numel);
  const scalar_t* x = reinterpret_cast<const scalar_t*>(p.in);
  scalar_t* y = reinterpret_cast<scalar_t*>(p.out);
#pragma unroll
  for (int w = 0; w < PF_EW_STRIDED_WORK; ++w, idx += PF_EW_THREADS) {
    if (idx >= n) return;
    const unsigned int nc = pf_div(p.inner_div, idx);
    const unsigned int ni = pf_div(p.channels_div, nc);
    const unsigned int c = nc - ni * p.channels_div.divisor;
    const long long s = p.per_sample ? static_cast<long long>(ni) * p.groups + c / (p.channels / p.groups)
                                     : static_cast<long long>(c);
    const pf_norm_channel k = pf_norm_channel_at(p, s, c);
    y[idx] = pf_cast<scalar_t>(pf_norm_apply(k, pf_cast<facc_t>(x[idx])));
  }
}

// The transform with one 16-byte vector per thread, when every (n, c) plane
// holds a multiple of PF_VEC elements (one channel per vector) and x / y are
// aligned: one parameter lookup per vector.
extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_norm_transform_vec(const PfNormParams p) {
  constexpr int N = PF_VEC;
  const unsigned int base = (blockIdx.x * blockDim.x + threadIdx.x) * N;
  if (base >= static_cast<unsigned int>(p.numel)) return;
  const unsigned int nc = pf_div(p.inner_div, base);
  const unsigned int ni = pf_div(p.channels_div, nc);
  const unsigned int c = nc - ni * p.channels_div.divisor;
  const long long s = p.per_sample ? static_cast<long long>(ni) * p.groups + c / (p.channels / p.groups)
                                   : static_cast<long long>(c);
  const pf_norm_channel k = pf_norm_channel_at(p, s, c);
  const pf_vec<scalar_t, N> x = *reinterpret_cast<const pf_vec<scalar_t, N>*>(reinterpret_cast<const scalar_t*>(p.in) + base);
  pf_vec<scalar_t, N> y;
#pragma unroll
  for (int j = 0; j < N; ++j) y.v[j] = pf_cast<scalar_t>(pf_norm_apply(k, pf_cast<facc_t>(x.v[j])));
  *reinterpret_cast<pf_vec<scalar_t, N>*>(reinterpret_cast<scalar_t*>(p.out) + base) = y;
}

// The transform with one block per (n, c) plane, for planes that are not a
// multiple of PF_VEC (7x7, 15x15): the plane's statistics and affine
// parameters are loaded once per thread (one address per block, so one
// memory round trip) instead of once per element, and threads walk the plane
// with unit stride. blockDim.x is a power of two sized to the plane.
extern "C" __global__ void __launch_bounds__(256) pf_norm_transform_plane(const PfNormParams p) {
  const unsigned int plane = blockIdx.x;
  const unsigned int ni = pf_div(p.channels_div, plane);
  const unsigned int c = plane - ni * p.channels_div.divisor;
  const long long s = p.per_sample ? static_cast<long long>(ni) * p.groups + c / (p.channels / p.groups)
                                   : static_cast<long long>(c);
  const pf_norm_channel k = pf_norm_channel_at(p, s, c);
  const unsigned int inner = p.inner_div.divisor;
  const scalar_t* x = reinterpret_cast<const scalar_t*>(p.in) + static_cast<long long>(plane) * inner;
  scalar_t* y = reinterpret_cast<scalar_t*>(p.out) + static_cast<long long>(plane) * inner;
#pragma unroll 4
  for (unsigned int i = threadIdx.x; i < inner; i += blockDim.x) {
    y[i] = pf_cast<scalar_t>(pf_norm_apply(k, pf_cast<facc_t>(x[i])));
  }
}
