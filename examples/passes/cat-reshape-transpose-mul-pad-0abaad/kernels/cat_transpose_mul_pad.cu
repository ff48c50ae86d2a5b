// out[n, h, 0, :] = 0 and out[n, h, i + 1, j] = q[n, h, i, j] * v(n, h, j, i)
// where v is cat([a, b, c], dim=1) (each [N, C?, H, W], contiguous) viewed
// as [n, h, d, s]. The product is rounded to the dtype once, as eager's mul.
//
// Tiled kernel (s == H * W, so channel = h * d + j and spatial = i): a block
// of 32 x 8 threads loads a 32 (j) x 32 (i) tile reading along i (coalesced
// in a, b, c), then writes it along j (coalesced in q and out).
// Generic kernel: any reshape, one output element per thread.
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

// Element (batch, channel, spatial) of cat([a, b, c], dim=1).
template <typename T>
__device__ __forceinline__ T cat_at(const T* a, const T* b, const T* c, long long ca, long long cb,
                                    long long cc, long long hw, long long batch, long long ch,
                                    long long sp) {
  if (ch < ca) return a[(batch * ca + ch) * hw + sp];
  if (ch < ca + cb) return b[(batch * cb + (ch - ca)) * hw + sp];
  return c[(batch * cc + (ch - ca - cb)) * hw + sp];
}

template <typename T>
__device__ __forceinline__ void tiled(const T* __restrict__ a, const T* __restrict__ b,
                                      const T* __restrict__ c, const T* __restrict__ q,
                                      T* __restrict__ out, long long ca, long long cb, long long cc,
                                      long long hw, int h, int d, long long s) {
  __shared__ float tile[32][33];
  const long long nh = blockIdx.z;
  const long long batch = nh / h;
  const int head = (int)(nh % h);
  const long long i0 = (long long)blockIdx.x * 32;
  const int j0 = blockIdx.y * 32;
  for (int jj = threadIdx.y; jj < 32; jj += 8) {
    const int j = j0 + jj;
    const long long i = i0 + threadIdx.x;
    if (j < d && i < s) {
      tile[jj][threadIdx.x] = to_f(cat_at(a, b, c, ca, cb, cc, hw, batch, (long long)head * d + j, i));
    }
  }
  __syncthreads();
  const int j = j0 + threadIdx.x;
  T* o = out + nh * (s + 1) * d;
  const T* qp = q + nh * s * d;
  if (blockIdx.x == 0 && threadIdx.y == 0 && j < d) o[j] = from_f<T>(0.f);
  if (j >= d) return;
  for (int ii = threadIdx.y; ii < 32; ii += 8) {
    const long long i = i0 + ii;
    if (i < s) o[(i + 1) * d + j] = from_f<T>(__fmul_rn(to_f(qp[i * d + j]), tile[threadIdx.x][ii]));
  }
}

template <typename T>
__device__ __forceinline__ void generic(const T* __restrict__ a, const T* __restrict__ b,
                                        const T* __restrict__ c, const T* __restrict__ q,
                                        T* __restrict__ out, long long ca, long long cb,
                                        long long cc, long long hw, int h, int d, long long s,
                                        long long total) {
  const long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (e >= total) return;
  const int j = (int)(e % d);
  const long long row = (e / d) % (s + 1);
  const long long nh = e / ((long long)d * (s + 1));
  if (row == 0) {
    out[e] = from_f<T>(0.f);
    return;
  }
  const long long i = row - 1;
  // Flat index of v[nh, j, i] in the cat, then its (batch, channel, spatial).
  const long long flat = (nh * d + j) * s + i;
  const long long per_batch = (ca + cb + cc) * hw;
  const long long batch = flat / per_batch;
  const long long rem = flat % per_batch;
  const float v = to_f(cat_at(a, b, c, ca, cb, cc, hw, batch, rem / hw, rem % hw));
  out[e] = from_f<T>(__fmul_rn(to_f(q[(nh * s + i) * d + j]), v));
}

#define PF_CAT_KERNELS(SUFFIX, T)                                                                  \
  extern "C" __global__ void cat_t_mul_pad_tiled_##SUFFIX(                                         \
      const T* a, const T* b, const T* c, const T* q, T* out, long long ca, long long cb,          \
      long long cc, long long hw, int h, int d, long long s) {                                     \
    tiled(a, b, c, q, out, ca, cb, cc, hw, h, d, s);                                               \
  }                                                                                                \
  extern "C" __global__ void cat_t_mul_pad_##SUFFIX(const T* a, const T* b, const T* c,            \
                                                    const T* q, T* out, long long ca,              \
                                                    long long cb, long long cc, long long hw,      \
                                                    int h, int d, long long s, long long total) {  \
    generic(a, b, c, q, out, ca, cb, cc, hw, h, d, s, total);                                      \
  }

PF_CAT_KERNELS(f32, float)
PF_CAT_KERNELS(f16, __half)
PF_CAT_KERNELS(bf16, __nv_bfloat16)
