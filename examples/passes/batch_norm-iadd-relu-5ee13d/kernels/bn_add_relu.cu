// out = relu(batch_norm(x) + residual) for contiguous [N, C, *spatial] tensors
// with running statistics (inference). Grid: x over the plane's hw elements in
// vectors of V elements, y over the N*C planes. Rounds like eager: the
// normalised value, the sum and the ReLU are each stored in the dtype. The
// normalised value is fma(x - mean, weight / sqrt(var + eps), bias) in float
// with the per-channel factor formed in double (eps too) and rounded once:
// real inputs (r3d_18's) cancel large normalised values against the residual,
// where a few float roundings more miss the float32 tolerance, and a float16
// sum rounds the normalised value at boundaries any change of the factor's
// last bit moves.
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
__device__ __forceinline__ void bn_add_relu_body(const T* __restrict__ x, const T* __restrict__ res,
                                                 const T* __restrict__ mean,
                                                 const T* __restrict__ var,
                                                 const T* __restrict__ weight,
                                                 const T* __restrict__ bias, T* __restrict__ out,
                                                 int channels, long long hw, double eps) {
  const long long i = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * V;
  if (i >= hw) return;
  const long long plane = blockIdx.y;
  const int c = (int)(plane % channels);
  const float m = to_f(mean[c]);
  const float scale = (float)__ddiv_rn((double)to_f(weight[c]),
                                       __dsqrt_rn((double)to_f(var[c]) + eps));
  const float b = to_f(bias[c]);
  const long long at = plane * hw + i;
  Vec<T, V> xv = *reinterpret_cast<const Vec<T, V>*>(x + at);
  Vec<T, V> rv = *reinterpret_cast<const Vec<T, V>*>(res + at);
  Vec<T, V> o;
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const float bn = __fmaf_rn(__fsub_rn(to_f(xv.v[k]), m), scale, b);
    const float sum = __fadd_rn(to_f(from_f<T>(bn)), to_f(rv.v[k]));
    o.v[k] = from_f<T>(fmaxf(to_f(from_f<T>(sum)), 0.f));
  }
  *reinterpret_cast<Vec<T, V>*>(out + at) = o;
}

template <typename T>
__device__ __forceinline__ void bn_add_relu(const T* x, const T* res, const T* mean, const T* var,
                                            const T* weight, const T* bias, T* out, int channels,
                                            long long hw, double eps, int vec) {
  if (vec == 8) {
    bn_add_relu_body<T, 8>(x, res, mean, var, weight, bias, out, channels, hw, eps);
  } else if (vec == 4) {
    bn_add_relu_body<T, 4>(x, res, mean, var, weight, bias, out, channels, hw, eps);
  } else {
    bn_add_relu_body<T, 1>(x, res, mean, var, weight, bias, out, channels, hw, eps);
  }
}

extern "C" __global__ void bn_add_relu_f32(const float* x, const float* res, const float* mean,
                                           const float* var, const float* weight,
                                           const float* bias, float* out, int channels,
                                           long long hw, double eps, int vec) {
  bn_add_relu(x, res, mean, var, weight, bias, out, channels, hw, eps, vec);
}

extern "C" __global__ void bn_add_relu_f16(const __half* x, const __half* res, const __half* mean,
                                           const __half* var, const __half* weight,
                                           const __half* bias, __half* out, int channels,
                                           long long hw, double eps, int vec) {
  bn_add_relu(x, res, mean, var, weight, bias, out, channels, hw, eps, vec);
}

extern "C" __global__ void bn_add_relu_bf16(const __nv_bfloat16* x, const __nv_bfloat16* res,
                                            const __nv_bfloat16* mean, const __nv_bfloat16* var,
                                            const __nv_bfloat16* weight,
                                            const __nv_bfloat16* bias, __nv_bfloat16* out,
                                            int channels, long long hw, double eps, int vec) {
  bn_add_relu(x, res, mean, var, weight, bias, out, channels, hw, eps, vec);
}
