// out[b, h, r, :] = softmax(x[b, h, r, :] + mask[...], -1) for a contiguous
// x of shape [B, H, R, C] and a mask read through broadcast strides (0 for
// broadcast dims). One warp per row. Like eager, the sum x + mask is rounded
// to the tensor dtype before the softmax, which computes in float.
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
__device__ __forceinline__ void masked_softmax(const T* __restrict__ x, const T* __restrict__ mask,
                                               T* __restrict__ out, long long rows, int h, int r,
                                               int c, long long mb, long long mh, long long mr,
                                               long long mc) {
  const long long row = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (row >= rows) return;
  const long long ri = row % r;
  const long long hi = (row / r) % h;
  const long long bi = row / ((long long)r * h);
  const T* xr = x + row * c;
  const T* mrow = mask + bi * mb + hi * mh + ri * mr;
  T* orow = out + row * c;
  float mx = __int_as_float(0xff800000);  // -inf
  for (int j = lane; j < c; j += 32) {
    mx = fmaxf(mx, to_f(from_f<T>(__fadd_rn(to_f(xr[j]), to_f(mrow[j * mc])))));
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, off));
  float sum = 0.f;
  for (int j = lane; j < c; j += 32) {
    const float v = to_f(from_f<T>(__fadd_rn(to_f(xr[j]), to_f(mrow[j * mc]))));
    sum += expf(v - mx);
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
  for (int j = lane; j < c; j += 32) {
    const float v = to_f(from_f<T>(__fadd_rn(to_f(xr[j]), to_f(mrow[j * mc]))));
    orow[j] = from_f<T>(__fdiv_rn(expf(v - mx), sum));
  }
}

extern "C" __global__ void masked_softmax_f32(const float* x, const float* mask, float* out,
                                              long long rows, int h, int r, int c, long long mb,
                                              long long mh, long long mr, long long mc) {
  masked_softmax(x, mask, out, rows, h, r, c, mb, mh, mr, mc);
}

extern "C" __global__ void masked_softmax_f16(const __half* x, const __half* mask, __half* out,
                                              long long rows, int h, int r, int c, long long mb,
                                              long long mh, long long mr, long long mc) {
  masked_softmax(x, mask, out, rows, h, r, c, mb, mh, mr, mc);
}

extern "C" __global__ void masked_softmax_bf16(const __nv_bfloat16* x,
                                               const __nv_bfloat16* mask, __nv_bfloat16* out,
                                               long long rows, int h, int r, int c, long long mb,
                                               long long mh, long long mr, long long mc) {
  masked_softmax(x, mask, out, rows, h, r, c, mb, mh, mr, mc);
}
