// pf-dtypes: float16 bfloat16 float32 float64
// softmax / log_softmax (ops_softmax.cpp), PyTorch's three kernels:
//   pf_softmax_warp_<L>: rows of at most 1024 contiguous elements (2^L after
//     rounding up), one warp per row (two rows per warp up to 128 elements),
//     the row held in registers ("persistent" softmax), 128 threads per block;
//   pf_softmax_block: one block per longer row, the row cached in dynamic
//     shared memory when it fits (smem bytes > 0), else read twice;
//   pf_softmax_spatial: softmax over a strided dim ([outer, dim, inner]),
//     one thread per (outer, inner) column.
// Math in opmath; the output is stored in out_dtype (softmax(x, dtype=)).

__device__ __forceinline__ opmath_t pf_sm_max(opmath_t a, opmath_t b) { return a > b ? a : b; }

template <int LOG2>
__device__ __forceinline__ void pf_softmax_warp(const PfSoftmaxParams& p) {
  constexpr int kNext = 1 << LOG2;
  constexpr int kWarp = kNext < 32 ? kNext : 32;
  constexpr int kIters = kNext / kWarp;
  constexpr int kBatch = kNext <= 128 ? 2 : 1;
  const long long first_row =
      (static_cast<long long>(blockIdx.x) * blockDim.y + threadIdx.y) * kBatch;
  const int lane = threadIdx.x;
  const int dim = static_cast<int>(p.dim_size);
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in);
  char* out = reinterpret_cast<char*>(p.out);
  const int out_size = p.out_dtype == PF_TAG_FLOAT64 ? 8 : p.out_dtype == PF_TAG_FLOAT32 ? 4 : 2;

  opmath_t v[kBatch][kIters];
  opmath_t mx[kBatch];
#pragma unroll
  for (int b = 0; b < kBatch; ++b) {
    const long long row = first_row + b;
    mx[b] = -pf_infinity<opmath_t>();
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
      const int e = lane + it * kWarp;
      v[b][it] = (row < p.outer && e < dim) ? pf_cast<opmath_t>(in[row * dim + e]) : -pf_infinity<opmath_t>();
      mx[b] = pf_sm_max(mx[b], v[b][it]);
    }
  }
#pragma unroll
  for (int b = 0; b < kBatch; ++b) {
#pragma unroll
    for (int o = kWarp / 2; o > 0; o >>= 1) mx[b] = pf_sm_max(mx[b], __shfl_xor_sync(0xffffffffu, mx[b], o, kWarp));
  }
  opmath_t sum[kBatch];
#pragma unroll
  for (int b = 0; b < kBatch; ++b) {
    sum[b] = 0;
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
      if (p.log) {
        sum[b] += pf_exp(v[b][it] - mx[b]);
      } else {
        v[b][it] = pf_exp(v[b][it] - mx[b]);
        sum[b] += v[b][it];
      }
    }
#pragma unroll
    for (int o = kWarp / 2; o > 0; o >>= 1) sum[b] += __shfl_xor_sync(0xffffffffu, sum[b], o, kWarp);
  }
#pragma unroll
  for (int b = 0; b < kBatch; ++b) {
    const long long row = first_row + b;
    if (row >= p.outer) break;
    const opmath_t lse = p.log ? pf_log(sum[b]) : opmath_t(0);
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
      const int e = lane + it * kWarp;
      if (e < dim) {
        opmath_t r = p.log ? v[b][it] - mx[b] - lse : v[b][it] / sum[b];
        pf_store_dyn(out + (row * dim + e) * out_size, p.out_dtype, r);
      }
    }
  }
}

#define PF_SOFTMAX_WARP(L)                                                              \
  extern "C" __global__ void __launch_bounds__(128) pf_softmax_warp_##L(const PfSoftmaxParams p) { \
    pf_softmax_warp<L>(p);                                                              \
  }
PF_SOFTMAX_WARP(0)
PF_SOFTMAX_WARP(1)
PF_SOFTMAX_WARP(2)
PF_SOFTMAX_WARP(3)
PF_SOFTMAX_WARP(4)
PF_SOFTMAX_WARP(5)
PF_SOFTMAX_WARP(6)
PF_SOFTMAX_WARP(7)
PF_SOFTMAX_WARP(8)
PF_SOFTMAX_WARP(9)
PF_SOFTMAX_WARP(10)

// Block-wide reduction of one value per thread (max or sum); every thread gets it.
template <bool kMax>
__device__ __forceinline__ opmath_t pf_block_reduce(opmath_t v, opmath_t* shared) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (blockDim.x + 31) / 32;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    opmath_t w = __shfl_xor_sync(0xffffffffu, v, o);
    v = kMax ? pf_sm_max(v, w) : v + w;
  }
  __syncthreads();
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  v = shared[0];
  for (int i = 1; i < warps; ++i) v = kMax ? pf_sm_max(v, shared[i]) : v + shared[i];
  return v;
}

extern "C" __global__ void __launch_bounds__(1024) pf_softmax_block(const PfSoftmaxParams p) {
  extern __shared__ __align__(16) char pf_dyn_smem[];
  __shared__ opmath_t red[32];
  const long long row = blockIdx.x;
  const long long dim = p.dim_size;
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in) + row * dim;
  scalar_t* cache = reinterpret_cast<scalar_t*>(pf_dyn_smem);
  const bool cached = p.cached != 0;
  opmath_t mx = -pf_infinity<opmath_t>();
  for (long long i = threadIdx.x; i < dim; i += blockDim.x) {
    scalar_t x = in[i];
    if (cached) cache[i] = x;
    mx = pf_sm_max(mx, pf_cast<opmath_t>(x));
  }
  mx = pf_block_reduce<true>(mx, red);
  opmath_t sum = 0;
  for (long long i = threadIdx.x; i < dim; i += blockDim.x) {
    opmath_t x = pf_cast<opmath_t>(cached ? cache[i] : in[i]);
    sum += pf_exp(x - mx);
  }
  sum = pf_block_reduce<false>(sum, red);
  const opmath_t lse = p.log ? pf_log(sum) : opmath_t(0);
  const int out_size = p.out_dtype == PF_TAG_FLOAT64 ? 8 : p.out_dtype == PF_TAG_FLOAT32 ? 4 : 2;
  char* out = reinterpret_cast<char*>(p.out) + row * dim * out_size;
  for (long long i = threadIdx.x; i < dim; i += blockDim.x) {
    opmath_t x = pf_cast<opmath_t>(cached ? cache[i] : in[i]);
    opmath_t r = p.log ? x - mx - lse : pf_exp(x - mx) / sum;
    pf_store_dyn(out + i * out_size, p.out_dtype, r);
  }
}

extern "C" __global__ void __launch_bounds__(128) pf_softmax_spatial(const PfSoftmaxParams p) {
  const long long col = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col >= p.outer * p.inner) return;
  const long long o = col / p.inner, j = col - o * p.inner;
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in) + o * p.dim_size * p.inner + j;
  const int out_size = p.out_dtype == PF_TAG_FLOAT64 ? 8 : p.out_dtype == PF_TAG_FLOAT32 ? 4 : 2;
  char* out = reinterpret_cast<char*>(p.out) + (o * p.dim_size * p.inner + j) * out_size;
  opmath_t mx = -pf_infinity<opmath_t>();
  for (long long k = 0; k < p.dim_size; ++k) mx = pf_sm_max(mx, pf_cast<opmath_t>(in[k * p.inner]));
  opmath_t sum = 0;
  for (long long k = 0; k < p.dim_size; ++k) sum += pf_exp(pf_cast<opmath_t>(in[k * p.inner]) - mx);
  const opmath_t lse = p.log ? pf_log(sum) : opmath_t(0);
  for (long long k = 0; k < p.dim_size; ++k) {
    opmath_t x = pf_cast<opmath_t>(in[k * p.inner]);
    pf_store_dyn(out + k * p.inner * out_size, p.out_dtype, p.log ? x - mx - lse : pf_exp(x - mx) / sum);
  }
}
