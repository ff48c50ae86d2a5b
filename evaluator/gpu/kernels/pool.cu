// pf-dtypes: float16 bfloat16 float32 float64
// pf-requires: pf_ops_abi.cuh
// Pooling over contiguous [planes, d, h, w] (ops_pool.cpp), PyTorch's NCHW
// kernels: one thread per output for the windowed kernels
// (max_pool_forward_nchw with its int64 argmax output, avg_pool2d_out_cuda_
// frame, and their 3-d forms), one block per plane with (32, 8) threads for
// the adaptive ones (adaptive_average_pool, adaptivemaxpool). Sums and maxima
// in opmath; a NaN in a max window wins.

__device__ __forceinline__ void pf_pool_decompose(const PfPoolParams& p, unsigned int idx, int& ow,
                                                  int& oh, unsigned int& plane) {
  unsigned int q = pf_div(p.out_div[2], idx);
  ow = static_cast<int>(idx - q * p.out_div[2].divisor);
  plane = pf_div(p.out_div[1], q);
  oh = static_cast<int>(q - plane * p.out_div[1].divisor);
}

extern "C" __global__ void __launch_bounds__(256) pf_max_pool2d(const PfPoolParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n)) return;
  int ow, oh;
  unsigned int plane;
  pf_pool_decompose(p, idx, ow, oh, plane);
  const int H = p.in_size[1], W = p.in_size[2];
  int hstart = oh * p.stride[1] - p.pad[1];
  int wstart = ow * p.stride[2] - p.pad[2];
  const int hend = min(hstart + (p.k[1] - 1) * p.dil[1] + 1, H);
  const int wend = min(wstart + (p.k[2] - 1) * p.dil[2] + 1, W);
  while (hstart < 0) hstart += p.dil[1];
  while (wstart < 0) wstart += p.dil[2];
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in) + static_cast<long long>(plane) * H * W;
  opmath_t maxval = -pf_infinity<opmath_t>();
  int maxidx = hstart * W + wstart;
  for (int h = hstart; h < hend; h += p.dil[1]) {
    for (int w = wstart; w < wend; w += p.dil[2]) {
      const opmath_t v = pf_cast<opmath_t>(in[h * W + w]);
      if (v > maxval || pf_isnan(v)) {
        maxidx = h * W + w;
        maxval = v;
      }
    }
  }
  reinterpret_cast<scalar_t*>(p.out)[idx] = pf_cast<scalar_t>(maxval);
  if (p.indices != 0) reinterpret_cast<long long*>(p.indices)[idx] = maxidx;
}

extern "C" __global__ void __launch_bounds__(1024) pf_avg_pool2d(const PfPoolParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n)) return;
  int ow, oh;
  unsigned int plane;
  pf_pool_decompose(p, idx, ow, oh, plane);
  const int H = p.in_size[1], W = p.in_size[2];
  int hstart = oh * p.stride[1] - p.pad[1];
  int wstart = ow * p.stride[2] - p.pad[2];
  int hend = min(hstart + p.k[1], H + p.pad[1]);
  int wend = min(wstart + p.k[2], W + p.pad[2]);
  const int pool_size = (hend - hstart) * (wend - wstart);
  hstart = max(hstart, 0);
  wstart = max(wstart, 0);
  hend = min(hend, H);
  wend = min(wend, W);
  scalar_t* out = reinterpret_cast<scalar_t*>(p.out);
  if (hstart >= hend || wstart >= wend) {
    out[idx] = pf_cast<scalar_t>(0);
    return;
  }
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in) + static_cast<long long>(plane) * H * W;
  opmath_t sum = 0;
  for (int h = hstart; h < hend; ++h) {
    for (int w = wstart; w < wend; ++w) sum += pf_cast<opmath_t>(in[h * W + w]);
  }
  const int divide = p.divisor != 0        ? p.divisor
                     : p.count_include_pad ? pool_size
                                           : (hend - hstart) * (wend - wstart);
  out[idx] = pf_cast<scalar_t>(sum / static_cast<opmath_t>(divide));
}

// 3-d windows (max_pool3d_with_indices_single_out_frame,
// avg_pool3d_cuda_update_output): one thread per output.
__device__ __forceinline__ void pf_pool3d_decompose(const PfPoolParams& p, unsigned int idx,
                                                    int& ow, int& oh, int& od,
                                                    unsigned int& plane) {
  unsigned int q = pf_div(p.out_div[2], idx);
  ow = static_cast<int>(idx - q * p.out_div[2].divisor);
  unsigned int r = pf_div(p.out_div[1], q);
  oh = static_cast<int>(q - r * p.out_div[1].divisor);
  plane = pf_div(p.out_div[0], r);
  od = static_cast<int>(r - plane * p.out_div[0].divisor);
}

extern "C" __global__ void __launch_bounds__(256) pf_max_pool3d(const PfPoolParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n)) return;
  int ow, oh, od;
  unsigned int plane;
  pf_pool3d_decompose(p, idx, ow, oh, od, plane);
  const int D = p.in_size[0], H = p.in_size[1], W = p.in_size[2];
  int dstart = od * p.stride[0] - p.pad[0];
  int hstart = oh * p.stride[1] - p.pad[1];
  int wstart = ow * p.stride[2] - p.pad[2];
  const int dend = min(dstart + (p.k[0] - 1) * p.dil[0] + 1, D);
  const int hend = min(hstart + (p.k[1] - 1) * p.dil[1] + 1, H);
  const int wend = min(wstart + (p.k[2] - 1) * p.dil[2] + 1, W);
  while (dstart < 0) dstart += p.dil[0];
  while (hstart < 0) hstart += p.dil[1];
  while (wstart < 0) wstart += p.dil[2];
  const scalar_t* in =
      reinterpret_cast<const scalar_t*>(p.in) + static_cast<long long>(plane) * D * H * W;
  opmath_t maxval = -pf_infinity<opmath_t>();
  long long maxidx = (static_cast<long long>(dstart) * H + hstart) * W + wstart;
  for (int d = dstart; d < dend; d += p.dil[0]) {
    for (int h = hstart; h < hend; h += p.dil[1]) {
      for (int w = wstart; w < wend; w += p.dil[2]) {
        const long long i = (static_cast<long long>(d) * H + h) * W + w;
        const opmath_t v = pf_cast<opmath_t>(in[i]);
        if (v > maxval || pf_isnan(v)) {
          maxidx = i;
          maxval = v;
        }
      }
    }
  }
  reinterpret_cast<scalar_t*>(p.out)[idx] = pf_cast<scalar_t>(maxval);
  if (p.indices != 0) reinterpret_cast<long long*>(p.indices)[idx] = maxidx;
}

extern "C" __global__ void __launch_bounds__(256) pf_avg_pool3d(const PfPoolParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n)) return;
  int ow, oh, od;
  unsigned int plane;
  pf_pool3d_decompose(p, idx, ow, oh, od, plane);
  const int D = p.in_size[0], H = p.in_size[1], W = p.in_size[2];
  int dstart = od * p.stride[0] - p.pad[0];
  int hstart = oh * p.stride[1] - p.pad[1];
  int wstart = ow * p.stride[2] - p.pad[2];
  int dend = min(dstart + p.k[0], D + p.pad[0]);
  int hend = min(hstart + p.k[1], H + p.pad[1]);
  int wend = min(wstart + p.k[2], W + p.pad[2]);
  const int pool_size = (dend - dstart) * (hend - hstart) * (wend - wstart);
  dstart = max(dstart, 0);
  hstart = max(hstart, 0);
  wstart = max(wstart, 0);
  dend = min(dend, D);
  hend = min(hend, H);
  wend = min(wend, W);
  scalar_t* out = reinterpret_cast<scalar_t*>(p.out);
  if (dstart >= dend || hstart >= hend || wstart >= wend) {
    out[idx] = pf_cast<scalar_t>(0);
    return;
  }
  const scalar_t* in =
      reinterpret_cast<const scalar_t*>(p.in) + static_cast<long long>(plane) * D * H * W;
  opmath_t sum = 0;
  for (int d = dstart; d < dend; ++d) {
    for (int h = hstart; h < hend; ++h) {
      const scalar_t* row = in + (static_cast<long long>(d) * H + h) * W;
      for (int w = wstart; w < wend; ++w) sum += pf_cast<opmath_t>(row[w]);
    }
  }
  const int divide = p.divisor != 0        ? p.divisor
                     : p.count_include_pad ? pool_size
                                           : (dend - dstart) * (hend - hstart) * (wend - wstart);
  out[idx] = pf_cast<scalar_t>(sum / static_cast<opmath_t>(divide));
}

__device__ __forceinline__ int pf_start_index(int o, int out, int in) {
  return static_cast<int>((static_cast<long long>(o) * in) / out);
}
__device__ __forceinline__ int pf_end_index(int o, int out, int in) {
  return static_cast<int>(((static_cast<long long>(o) + 1) * in + out - 1) / out);
}

// Adaptive pooling: block x = plane, threads (32, 8) stride over (oh, ow),
// blockIdx.y splits the output rows; 3-d outputs loop over od.
template <bool kMax>
__device__ __forceinline__ void pf_adaptive_pool(const PfPoolParams& p) {
  const int D = p.in_size[0], H = p.in_size[1], W = p.in_size[2];
  const int OD = p.out_size[0], OH = p.out_size[1], OW = p.out_size[2];
  const long long plane = blockIdx.x;
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in) + plane * D * H * W;
  const long long out_base = plane * OD * OH * OW;
  scalar_t* out = reinterpret_cast<scalar_t*>(p.out) + out_base;
  long long* indices = p.indices != 0 ? reinterpret_cast<long long*>(p.indices) + out_base : nullptr;
  for (int od = 0; od < OD; ++od) {
    const int d0 = pf_start_index(od, OD, D), d1 = pf_end_index(od, OD, D);
    for (int oh = blockIdx.y * blockDim.y + threadIdx.y; oh < OH; oh += blockDim.y * gridDim.y) {
      const int h0 = pf_start_index(oh, OH, H), h1 = pf_end_index(oh, OH, H);
      for (int ow = threadIdx.x; ow < OW; ow += blockDim.x) {
        const int w0 = pf_start_index(ow, OW, W), w1 = pf_end_index(ow, OW, W);
        const long long o = (static_cast<long long>(od) * OH + oh) * OW + ow;
        if constexpr (kMax) {
          opmath_t best = -pf_infinity<opmath_t>();
          long long arg = (static_cast<long long>(d0) * H + h0) * W + w0;
          for (int d = d0; d < d1; ++d) {
            for (int h = h0; h < h1; ++h) {
              for (int w = w0; w < w1; ++w) {
                const long long i = (static_cast<long long>(d) * H + h) * W + w;
                const opmath_t v = pf_cast<opmath_t>(in[i]);
                if (v > best || pf_isnan(v)) {
                  best = v;
                  arg = i;
                }
              }
            }
          }
          out[o] = pf_cast<scalar_t>(best);
          if (indices != nullptr) indices[o] = arg;
        } else {
          opmath_t sum = 0;
          for (int d = d0; d < d1; ++d) {
            for (int h = h0; h < h1; ++h) {
              const scalar_t* row = in + (static_cast<long long>(d) * H + h) * W;
              for (int w = w0; w < w1; ++w) sum += pf_cast<opmath_t>(row[w]);
            }
          }
          // PyTorch divides one window extent at a time.
          out[o] = pf_cast<scalar_t>(sum / static_cast<opmath_t>(d1 - d0) / static_cast<opmath_t>(h1 - h0) /
                                     static_cast<opmath_t>(w1 - w0));
        }
      }
    }
  }
}

extern "C" __global__ void __launch_bounds__(256) pf_adaptive_avg_pool(const PfPoolParams p) {
  pf_adaptive_pool<false>(p);
}

extern "C" __global__ void __launch_bounds__(256) pf_adaptive_max_pool(const PfPoolParams p) {
  pf_adaptive_pool<true>(p);
}
