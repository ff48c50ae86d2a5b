// out[n, c] = mean over the plane of relu(batch_norm(x[n, c])) with running
// statistics (inference), x contiguous [N, C, H, W], one warp per plane. The
// normalised value is computed as the eager baseline does,
// fma((x - mean) * (1 / sqrt(var + eps)), weight, bias) in float, and rounded
// to the tensor dtype (the stored intermediate) before the ReLU and the sum.
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
__device__ __forceinline__ void bn_relu_pool(const T* __restrict__ x, const T* __restrict__ mean,
                                             const T* __restrict__ var, const T* __restrict__ weight,
                                             const T* __restrict__ bias, T* __restrict__ out,
                                             long long planes, int channels, int hw, float eps) {
  const long long plane = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (plane >= planes) return;
  const int c = (int)(plane % channels);
  const float m = to_f(mean[c]);
  const float rstd = __fdiv_rn(1.f, __fsqrt_rn(__fadd_rn(to_f(var[c]), eps)));
  const float w = to_f(weight[c]);
  const float b = to_f(bias[c]);
  const T* xp = x + plane * hw;
  float sum = 0.f;
  for (int i = lane; i < hw; i += 32) {
    const float v = __fmaf_rn(__fmul_rn(__fsub_rn(to_f(xp[i]), m), rstd), w, b);
    sum += fmaxf(to_f(from_f<T>(v)), 0.f);
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
  if (lane == 0) out[plane] = from_f<T>(__fdiv_rn(sum, (float)hw));
}

extern "C" __global__ void bn_relu_pool_f32(const float* x, const float* mean, const float* var,
                                            const float* weight, const float* bias, float* out,
                                            long long planes, int channels, int hw, float eps) {
  bn_relu_pool(x, mean, var, weight, bias, out, planes, channels, hw, eps);
}

extern "C" __global__ void bn_relu_pool_f16(const __half* x, const __half* mean, const __half* var,
                                            const __half* weight, const __half* bias, __half* out,
                                            long long planes, int channels, int hw, float eps) {
  bn_relu_pool(x, mean, var, weight, bias, out, planes, channels, hw, eps);
}

extern "C" __global__ void bn_relu_pool_bf16(const __nv_bfloat16* x, const __nv_bfloat16* mean,
                                             const __nv_bfloat16* var,
                                             const __nv_bfloat16* weight,
                                             const __nv_bfloat16* bias, __nv_bfloat16* out,
                                             long long planes, int channels, int hw, float eps) {
  bn_relu_pool(x, mean, var, weight, bias, out, planes, channels, hw, eps);
}
