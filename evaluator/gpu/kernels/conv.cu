// pf-dtypes: float16 bfloat16 float32 float64
// pf-requires: pf_ops_abi.cuh
// Direct convolutions (ops_conv.cpp), one thread per output element
// accumulating in opmath, bias fused:
//   pf_conv_direct (any kernel size), pf_conv_direct_k3/_k5/_k7 (square
//     K x K kernels in H and W, any depth): forward convolution; PyTorch's own
//     kernel for depthwise convolutions (conv_depthwise2d_forward_kernel and
//     conv_depthwise3d_cuda_kernel have this shape), and the fallback for
//     every convolution when cuDNN is absent;
//   pf_conv_dw_k<K>_s<S>[_d<D>]: 2-d convolutions with one input channel per
//     group (depthwise) whose kernel is K (3, 5, 7) wide at width stride S
//     (1, 2) and width dilation D (1, 2; no suffix: 1), any height geometry:
//     PF_CONV_DW_COLS outputs of one row per thread, so each kernel row loads
//     the (COLS - 1) * S + (K - 1) * D + 1 input values those outputs share
//     once and reuses them from registers (one output per thread loads
//     K * COLS), and each weight once per COLS outputs; taps are summed in
//     the same order as pf_conv_direct;
//   pf_conv_transpose_direct: transposed convolution (fallback only).
// Input contiguous [N, C_in, D, H, W] (2-d: D = 1), weight contiguous, output
// contiguous.

struct PfConvIndex {
  int ow, oh, od, oc, n;
};

__device__ __forceinline__ PfConvIndex pf_conv_decompose(const PfConvParams& p, unsigned int idx) {
  PfConvIndex i;
  unsigned int q = pf_div(p.ow_div, idx);
  i.ow = static_cast<int>(idx - q * p.ow_div.divisor);
  unsigned int r = pf_div(p.oh_div, q);
  i.oh = static_cast<int>(q - r * p.oh_div.divisor);
  unsigned int t = pf_div(p.od_div, r);
  i.od = static_cast<int>(r - t * p.od_div.divisor);
  unsigned int s = pf_div(p.c_div, t);
  i.oc = static_cast<int>(t - s * p.c_div.divisor);
  i.n = static_cast<int>(s);
  return i;
}

// K > 0: a K x K kernel in H and W known at compile time, so both tap loops
// unroll and every tap's load is in flight at once (PyTorch instantiates its
// depthwise kernel per size the same way); K = 0: any size.
template <int K>
__device__ __forceinline__ void pf_conv_direct_impl(const PfConvParams& p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n_out)) return;
  const PfConvIndex o = pf_conv_decompose(p, idx);
  const int D = p.in_size[0], H = p.in_size[1], W = p.in_size[2];
  const int KD = p.k[0], KH = K > 0 ? K : p.k[1], KW = K > 0 ? K : p.k[2];
  const long long plane = static_cast<long long>(D) * H * W;
  const int cg_in = p.c_in / p.groups, cg_out = p.c_out / p.groups;
  const int g = o.oc / cg_out;
  const scalar_t* in =
      reinterpret_cast<const scalar_t*>(p.in) +
      (static_cast<long long>(o.n) * p.c_in + static_cast<long long>(g) * cg_in) * plane;
  const scalar_t* w = reinterpret_cast<const scalar_t*>(p.weight) +
                      static_cast<long long>(o.oc) * cg_in * KD * KH * KW;
  opmath_t acc = p.bias != 0 ? pf_cast<opmath_t>(reinterpret_cast<const scalar_t*>(p.bias)[o.oc])
                             : opmath_t(0);
  const int d0 = o.od * p.stride[0] - p.pad[0], h0 = o.oh * p.stride[1] - p.pad[1],
            w0 = o.ow * p.stride[2] - p.pad[2];
  for (int ic = 0; ic < cg_in; ++ic) {
    const scalar_t* vol = in + static_cast<long long>(ic) * plane;
    const scalar_t* wk = w + static_cast<long long>(ic) * KD * KH * KW;
    for (int kd = 0; kd < KD; ++kd) {
      const int id = d0 + kd * p.dil[0];
      if (id < 0 || id >= D) continue;
      const scalar_t* slice = vol + static_cast<long long>(id) * H * W;
      const scalar_t* wd = wk + kd * KH * KW;
#pragma unroll
      for (int kh = 0; kh < KH; ++kh) {
        const int ih = h0 + kh * p.dil[1];
#pragma unroll
        for (int kw = 0; kw < KW; ++kw) {
          const int iw = w0 + kw * p.dil[2];
          if (ih >= 0 && ih < H && iw >= 0 && iw < W) {
            acc += pf_cast<opmath_t>(wd[kh * KW + kw]) * pf_cast<opmath_t>(slice[ih * W + iw]);
          }
        }
      }
    }
  }
  reinterpret_cast<scalar_t*>(p.out)[idx] = pf_cast<scalar_t>(acc);
}

extern "C" __global__ void __launch_bounds__(256) pf_conv_direct(const PfConvParams p) {
  pf_conv_direct_impl<0>(p);
}
extern "C" __global__ void __launch_bounds__(256) pf_conv_direct_k3(const PfConvParams p) {
  pf_conv_direct_impl<3>(p);
}
extern "C" __global__ void __launch_bounds__(256) pf_conv_direct_k5(const PfConvParams p) {
  pf_conv_direct_impl<5>(p);
}
extern "C" __global__ void __launch_bounds__(256) pf_conv_direct_k7(const PfConvParams p) {
  pf_conv_direct_impl<7>(p);
}

template <int K, int S, int D>
__device__ __forceinline__ void pf_conv_dw_impl(const PfConvParams& p) {
  constexpr int kCols = PF_CONV_DW_COLS;
  constexpr int kSpan = (kCols - 1) * S + (K - 1) * D + 1;
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int q = pf_div(p.ow_div, idx);  // ow_div: column blocks per row
  const int block = static_cast<int>(idx - q * p.ow_div.divisor);
  const unsigned int r = pf_div(p.oh_div, q);
  const int oh = static_cast<int>(q - r * p.oh_div.divisor);
  const unsigned int n = pf_div(p.c_div, r);
  const int oc = static_cast<int>(r - n * p.c_div.divisor);
  if (n >= static_cast<unsigned int>(p.batch)) return;
  const int H = p.in_size[1], W = p.in_size[2], KH = p.k[1];
  const int OH = p.out_size[1], OW = p.out_size[2];
  const int ic = oc / (p.c_out / p.groups);
  const scalar_t* plane = reinterpret_cast<const scalar_t*>(p.in) +
                          (static_cast<long long>(n) * p.c_in + ic) * H * W;
  const scalar_t* wk =
      reinterpret_cast<const scalar_t*>(p.weight) + static_cast<long long>(oc) * KH * K;
  const opmath_t b = p.bias != 0 ? pf_cast<opmath_t>(reinterpret_cast<const scalar_t*>(p.bias)[oc])
                                 : opmath_t(0);
  opmath_t acc[kCols];
#pragma unroll
  for (int v = 0; v < kCols; ++v) acc[v] = b;
  const int ow0 = block * kCols;
  const int iw0 = ow0 * S - p.pad[2];
  const int ih0 = oh * p.stride[1] - p.pad[1];
  for (int kh = 0; kh < KH; ++kh) {
    const int ih = ih0 + kh * p.dil[1];
    if (ih < 0 || ih >= H) continue;
    const scalar_t* row = plane + ih * W;
    opmath_t x[kSpan];
    bool inside[kSpan];
#pragma unroll
    for (int j = 0; j < kSpan; ++j) {
      const int iw = iw0 + j;
      inside[j] = iw >= 0 && iw < W;
      x[j] = inside[j] ? pf_cast<opmath_t>(row[iw]) : opmath_t(0);
    }
#pragma unroll
    for (int kw = 0; kw < K; ++kw) {
      const opmath_t w = pf_cast<opmath_t>(wk[kh * K + kw]);
#pragma unroll
      for (int v = 0; v < kCols; ++v) {
        // Taps outside the input are skipped, not added as 0 * w, as PyTorch's kernel.
        if (inside[v * S + kw * D]) acc[v] += w * x[v * S + kw * D];
      }
    }
  }
  scalar_t* out = reinterpret_cast<scalar_t*>(p.out) +
                  ((static_cast<long long>(n) * p.c_out + oc) * OH + oh) * OW;
#pragma unroll
  for (int v = 0; v < kCols; ++v) {
    if (ow0 + v < OW) out[ow0 + v] = pf_cast<scalar_t>(acc[v]);
  }
}

#define PF_CONV_DW(K, S, D, SUFFIX)                                                     \
  extern "C" __global__ void __launch_bounds__(PF_CONV_DW_THREADS)                      \
      pf_conv_dw_k##K##_s##S##SUFFIX(const PfConvParams p) {                            \
    pf_conv_dw_impl<K, S, D>(p);                                                        \
  }
#define PF_CONV_DW_DILATIONS(K, S) \
  PF_CONV_DW(K, S, 1, )            \
  PF_CONV_DW(K, S, 2, _d2)
PF_CONV_DW_DILATIONS(3, 1)
PF_CONV_DW_DILATIONS(3, 2)
PF_CONV_DW_DILATIONS(5, 1)
PF_CONV_DW_DILATIONS(5, 2)
PF_CONV_DW_DILATIONS(7, 1)
PF_CONV_DW_DILATIONS(7, 2)
#undef PF_CONV_DW_DILATIONS
#undef PF_CONV_DW

// The input position i with i * stride = o + pad - k * dil, or -1.
__device__ __forceinline__ int pf_conv_source(int o, int pad, int k, int dil, int stride,
                                              int size) {
  const int t = o + pad - k * dil;
  if (t < 0 || t % stride != 0) return -1;
  const int i = t / stride;
  return i < size ? i : -1;
}

extern "C" __global__ void __launch_bounds__(256) pf_conv_transpose_direct(const PfConvParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n_out)) return;
  const PfConvIndex o = pf_conv_decompose(p, idx);
  const int D = p.in_size[0], H = p.in_size[1], W = p.in_size[2];
  const int KD = p.k[0], KH = p.k[1], KW = p.k[2];
  const long long plane = static_cast<long long>(D) * H * W;
  const int cg_in = p.c_in / p.groups, cg_out = p.c_out / p.groups;
  const int g = o.oc / cg_out, oc_g = o.oc - g * cg_out;
  opmath_t acc = p.bias != 0 ? pf_cast<opmath_t>(reinterpret_cast<const scalar_t*>(p.bias)[o.oc])
                             : opmath_t(0);
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in);
  const scalar_t* weight = reinterpret_cast<const scalar_t*>(p.weight);
  for (int ic = 0; ic < cg_in; ++ic) {
    const int c = g * cg_in + ic;
    const scalar_t* vol = in + (static_cast<long long>(o.n) * p.c_in + c) * plane;
    const scalar_t* wk = weight + (static_cast<long long>(c) * cg_out + oc_g) * KD * KH * KW;
    for (int kd = 0; kd < KD; ++kd) {
      const int id = pf_conv_source(o.od, p.pad[0], kd, p.dil[0], p.stride[0], D);
      if (id < 0) continue;
      for (int kh = 0; kh < KH; ++kh) {
        const int ih = pf_conv_source(o.oh, p.pad[1], kh, p.dil[1], p.stride[1], H);
        if (ih < 0) continue;
        const scalar_t* row = vol + (static_cast<long long>(id) * H + ih) * W;
        const scalar_t* wr = wk + (kd * KH + kh) * KW;
        for (int kw = 0; kw < KW; ++kw) {
          const int iw = pf_conv_source(o.ow, p.pad[2], kw, p.dil[2], p.stride[2], W);
          if (iw < 0) continue;
          acc += pf_cast<opmath_t>(wr[kw]) * pf_cast<opmath_t>(row[iw]);
        }
      }
    }
  }
  reinterpret_cast<scalar_t*>(p.out)[idx] = pf_cast<scalar_t>(acc);
}
