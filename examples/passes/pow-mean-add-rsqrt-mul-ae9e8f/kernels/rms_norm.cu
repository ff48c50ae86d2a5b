// out[r, :] = x[r, :] * rsqrt(mean(x[r, :] ** 2) + eps) for contiguous rows of
// length d, one warp per row. Rounds like eager op by op: the square, the
// mean, the sum with eps, the rsqrt and the product are each rounded to the
// tensor's dtype (no-ops for float32); sums are accumulated in float.
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

// Rounds a float to T and back: what storing an intermediate tensor does.
template <typename T>
__device__ __forceinline__ float round_to(float v) { return to_f(from_f<T>(v)); }

template <typename T, int V>
struct alignas(sizeof(T) * V) Vec {
  T v[V];
};

template <typename T, int V>
__device__ __forceinline__ void rms_body(const T* __restrict__ x, T* __restrict__ out,
                                         long long rows, int d, float eps) {
  const long long row = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (row >= rows) return;
  const T* xr = x + row * d;
  T* orow = out + row * d;
  float sum = 0.f;
  for (int j = lane * V; j < d; j += 32 * V) {
    Vec<T, V> v = *reinterpret_cast<const Vec<T, V>*>(xr + j);
#pragma unroll
    for (int k = 0; k < V; ++k) {
      const float f = to_f(v.v[k]);
      sum = __fadd_rn(sum, round_to<T>(__fmul_rn(f, f)));
    }
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
  const float mean = round_to<T>(__fdiv_rn(sum, (float)d));
  const float scale = round_to<T>(rsqrtf(round_to<T>(__fadd_rn(mean, eps))));
  for (int j = lane * V; j < d; j += 32 * V) {
    Vec<T, V> v = *reinterpret_cast<const Vec<T, V>*>(xr + j);
    Vec<T, V> o;
#pragma unroll
    for (int k = 0; k < V; ++k) o.v[k] = from_f<T>(__fmul_rn(to_f(v.v[k]), scale));
    *reinterpret_cast<Vec<T, V>*>(orow + j) = o;
  }
}

template <typename T>
__device__ __forceinline__ void rms_norm(const T* x, T* out, long long rows, int d, float eps,
                                         int vec) {
  if (vec == 8) {
    rms_body<T, 8>(x, out, rows, d, eps);
  } else if (vec == 4) {
    rms_body<T, 4>(x, out, rows, d, eps);
  } else {
    rms_body<T, 1>(x, out, rows, d, eps);
  }
}

extern "C" __global__ void rms_norm_f32(const float* x, float* out, long long rows, int d,
                                        float eps, int vec) {
  rms_norm(x, out, rows, d, eps, vec);
}

extern "C" __global__ void rms_norm_f16(const __half* x, __half* out, long long rows, int d,
                                        float eps, int vec) {
  rms_norm(x, out, rows, d, eps, vec);
}

extern "C" __global__ void rms_norm_bf16(const __nv_bfloat16* x, __nv_bfloat16* out,
                                         long long rows, int d, float eps, int vec) {
  rms_norm(x, out, rows, d, eps, vec);
}
