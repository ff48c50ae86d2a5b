// out = (x * 0.5) * (1.0 + erf(x / sqrt(2))) for a contiguous x, with each
// intermediate rounded to the dtype as eager's five kernels store them and
// no contraction into FMAs (explicit _rn operations).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

template <typename T>
__device__ __forceinline__ float to_f(T v);
template <>
__device__ __forceinline__ float to_f<float>(float v) { return v; }
template <>
__device__ __forceinline__ float to_f<__half>(__half v) { return __half2float(v); }
template <>
__device__ __forceinline__ float to_f<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
__device__ __forceinline__ T from_f(float v);
template <>
__device__ __forceinline__ float from_f<float>(float v) { return v; }
template <>
__device__ __forceinline__ __half from_f<__half>(float v) { return __float2half_rn(v); }
template <>
__device__ __forceinline__ __nv_bfloat16 from_f<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

template <typename T>
__device__ __forceinline__ float round_to(float v) { return to_f(from_f<T>(v)); }

template <typename T, int V>
struct alignas(sizeof(T) * V) Vec {
  T v[V];
};

template <typename T, int V>
__device__ __forceinline__ void gelu_body(const T* __restrict__ x, T* __restrict__ out,
                                          long long n) {
  const long long i = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * V;
  if (i >= n) return;
  Vec<T, V> xv = *reinterpret_cast<const Vec<T, V>*>(x + i);
  Vec<T, V> o;
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const float f = to_f(xv.v[k]);
    const float half = round_to<T>(__fmul_rn(f, 0.5f));
    const float e = round_to<T>(erff(round_to<T>(__fdiv_rn(f, 1.41421356237309515f))));
    o.v[k] = from_f<T>(__fmul_rn(half, round_to<T>(__fadd_rn(1.0f, e))));
  }
  *reinterpret_cast<Vec<T, V>*>(out + i) = o;
}

template <typename T>
__device__ __forceinline__ void erf_gelu(const T* x, T* out, long long n, int vec) {
  if (vec == 8) {
    gelu_body<T, 8>(x, out, n);
  } else if (vec == 4) {
    gelu_body<T, 4>(x, out, n);
  } else {
    gelu_body<T, 1>(x, out, n);
  }
}

extern "C" __global__ void erf_gelu_f32(const float* x, float* out, long long n, int vec) {
  erf_gelu(x, out, n, vec);
}

extern "C" __global__ void erf_gelu_f16(const __half* x, __half* out, long long n, int vec) {
  erf_gelu(x, out, n, vec);
}

extern "C" __global__ void erf_gelu_bf16(const __nv_bfloat16* x, __nv_bfloat16* out, long long n,
                                         int vec) {
  erf_gelu(x, out, n, vec);
}
