// pf-dtypes: uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64
// pf-requires: pf_ops_abi.cuh
// cumsum / cumprod (ops_scan.cpp) as PyTorch's scan_dim runs them on a
// contiguous input already converted to the output dtype:
//   pf_scan_inner: the scanned dim is the innermost (scan_innermost_dim):
//     a warp per row walks it in chunks of 32 with a warp-shuffle inclusive
//     scan and a running carry;
//   pf_scan_outer: any other dim (scan_outer_dim): a thread per (outer,
//     inner) column walks the scanned dim sequentially.
// Floating accumulation in opmath (float for half/bfloat16, as PyTorch's
// acc_type); integers wrap in 64 bits.

template <class T> struct pf_scan_acc { typedef unsigned long long type; };
template <> struct pf_scan_acc<pf_half> { typedef float type; };
template <> struct pf_scan_acc<pf_bf16> { typedef float type; };
template <> struct pf_scan_acc<float> { typedef float type; };
template <> struct pf_scan_acc<double> { typedef double type; };
typedef typename pf_scan_acc<scalar_t>::type acc_t;

// Templates, so that the branch for the other kind is never instantiated.
template <class T>
__device__ __forceinline__ acc_t pf_scan_load(const T* p) {
  if constexpr (pf_is_float<T>::value) {
    return pf_cast<acc_t>(*p);
  } else {
    return static_cast<acc_t>(static_cast<long long>(*p));
  }
}

template <class T>
__device__ __forceinline__ T pf_scan_store(acc_t v) {
  if constexpr (pf_is_float<T>::value) {
    return pf_cast<T>(v);
  } else {
    return static_cast<T>(static_cast<long long>(v));
  }
}

__device__ __forceinline__ acc_t pf_scan_op(acc_t a, acc_t b, int product) {
  return product ? a * b : a + b;
}

extern "C" __global__ void __launch_bounds__(PF_SCAN_WARPS * 32) pf_scan_inner(const PfScanParams p) {
  const long long row = static_cast<long long>(blockIdx.x) * PF_SCAN_WARPS + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= p.outer) return;
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in) + row * p.len;
  scalar_t* out = reinterpret_cast<scalar_t*>(p.out) + row * p.len;
  const acc_t identity = p.product ? acc_t(1) : acc_t(0);
  acc_t carry = identity;
  for (long long base = 0; base < p.len; base += 32) {
    const long long i = base + lane;
    acc_t v = i < p.len ? pf_scan_load(in + i) : identity;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const acc_t u = __shfl_up_sync(0xffffffffu, v, o);
      if (lane >= o) v = pf_scan_op(u, v, p.product);
    }
    v = pf_scan_op(carry, v, p.product);
    if (i < p.len) out[i] = pf_scan_store<scalar_t>(v);
    carry = __shfl_sync(0xffffffffu, v, 31);
  }
}

extern "C" __global__ void __launch_bounds__(512) pf_scan_outer(const PfScanParams p) {
  for (long long o = blockIdx.x; o < p.outer; o += gridDim.x) {
    for (long long k = static_cast<long long>(blockIdx.y) * blockDim.x + threadIdx.x; k < p.inner;
         k += static_cast<long long>(gridDim.y) * blockDim.x) {
      const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in) + o * p.len * p.inner + k;
      scalar_t* out = reinterpret_cast<scalar_t*>(p.out) + o * p.len * p.inner + k;
      acc_t acc = p.product ? acc_t(1) : acc_t(0);
      for (long long j = 0; j < p.len; ++j) {
        acc = pf_scan_op(acc, pf_scan_load(in + j * p.inner), p.product);
        out[j * p.inner] = pf_scan_store<scalar_t>(acc);
      }
    }
  }
}
