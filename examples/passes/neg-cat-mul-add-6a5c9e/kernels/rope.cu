// out[r, j] = d[r, j] + cat(-a[r], b[r])[j] * c[r % c_rows, j] for rows r of
// width 2 * halfw, all tensors contiguous. Rounds like eager: the product is
// rounded to the tensor dtype before the add, and float32 uses explicit
// round-to-nearest ops so the compiler cannot contract mul + add into an FMA.
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

template <typename T, int V>
struct alignas(sizeof(T) * V) Vec {
  T v[V];
};

template <typename T, int V>
__device__ __forceinline__ void rope_body(const T* __restrict__ a, const T* __restrict__ b,
                                          const T* __restrict__ c, const T* __restrict__ d,
                                          T* __restrict__ out, long long rows, int halfw,
                                          long long c_rows) {
  const int width = 2 * halfw;
  const long long groups = rows * width / V;
  const long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (g >= groups) return;
  const long long e = g * V;
  const long long r = e / width;
  const int j = (int)(e - r * width);
  const bool first = j < halfw;  // V divides half: a group never straddles the halves
  const T* src = first ? a + r * halfw + j : b + r * halfw + (j - halfw);
  Vec<T, V> x = *reinterpret_cast<const Vec<T, V>*>(src);
  Vec<T, V> cv = *reinterpret_cast<const Vec<T, V>*>(c + (r % c_rows) * width + j);
  Vec<T, V> dv = *reinterpret_cast<const Vec<T, V>*>(d + r * width + j);
  Vec<T, V> o;
#pragma unroll
  for (int k = 0; k < V; ++k) {
    float xv = to_f(x.v[k]);
    if (first) xv = -xv;
    T p = from_f<T>(__fmul_rn(xv, to_f(cv.v[k])));
    o.v[k] = from_f<T>(__fadd_rn(to_f(dv.v[k]), to_f(p)));
  }
  *reinterpret_cast<Vec<T, V>*>(out + e) = o;
}

template <typename T>
__device__ __forceinline__ void rope(const T* a, const T* b, const T* c, const T* d, T* out,
                                     long long rows, int halfw, long long c_rows, int vec) {
  if (vec == 4) {
    rope_body<T, 4>(a, b, c, d, out, rows, halfw, c_rows);
  } else {
    rope_body<T, 1>(a, b, c, d, out, rows, halfw, c_rows);
  }
}

extern "C" __global__ void rope_f32(const float* a, const float* b, const float* c, const float* d,
                                    float* out, long long rows, int halfw, long long c_rows,
                                    int vec) {
  rope(a, b, c, d, out, rows, halfw, c_rows, vec);
}

extern "C" __global__ void rope_f16(const __half* a, const __half* b, const __half* c,
                                    const __half* d, __half* out, long long rows, int halfw,
                                    long long c_rows, int vec) {
  rope(a, b, c, d, out, rows, halfw, c_rows, vec);
}

extern "C" __global__ void rope_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b,
                                     const __nv_bfloat16* c, const __nv_bfloat16* d,
                                     __nv_bfloat16* out, long long rows, int halfw,
                                     long long c_rows, int vec) {
  rope(a, b, c, d, out, rows, halfw, c_rows, vec);
}
