// pf-dtypes: float16 bfloat16 float32 float64
// pf-requires: pf_ops_abi.cuh
// Direct convolutions (ops_conv.cpp), one thread per output element
// accumulating in opmath, bias fused:
//   pf_conv_direct (any kernel size), pf_conv_direct_k3/_k5/_k7 (square
//     kernels of that size): forward convolution; PyTorch's own kernel for
//     depthwise convolutions (conv_depthwise2d_forward_kernel has this shape),
//     and the fallback for every convolution when cuDNN is absent;
//   pf_conv_transpose_direct: transposed convolution (fallback only).
// Input contiguous [N, C_in, H, W], weight contiguous, output contiguous.

__device__ __forceinline__ void pf_conv_decompose(const PfConvParams& p, unsigned int idx, int& ow, int& oh,
                                                  int& oc, int& n) {
  unsigned int q = pf_div(p.ow_div, idx);
  ow = static_cast<int>(idx - q * p.ow_div.divisor);
  unsigned int r = pf_div(p.oh_div, q);
  oh = static_cast<int>(q - r * p.oh_div.divisor);
  unsigned int s = pf_div(p.c_div, r);
  oc = static_cast<int>(r - s * p.c_div.divisor);
  n = static_cast<int>(s);
}

// K > 0: a K x K kernel known at compile time, so both tap loops unroll and
// every tap's load is in flight at once (PyTorch instantiates its depthwise
// kernel per size the same way); K = 0: any size.
template <int K>
__device__ __forceinline__ void pf_conv_direct_impl(const PfConvParams& p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n_out)) return;
  int ow, oh, oc, n;
  pf_conv_decompose(p, idx, ow, oh, oc, n);
  const int H = p.in_size[0], W = p.in_size[1];
  const int KH = K > 0 ? K : p.k[0], KW = K > 0 ? K : p.k[1];
  const int cg_in = p.c_in / p.groups, cg_out = p.c_out / p.groups;
  const int g = oc / cg_out;
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in) +
                       (static_cast<long long>(n) * p.c_in + static_cast<long long>(g) * cg_in) * H * W;
  const scalar_t* w = reinterpret_cast<const scalar_t*>(p.weight) + static_cast<long long>(oc) * cg_in * KH * KW;
  opmath_t acc = p.bias != 0 ? pf_cast<opmath_t>(reinterpret_cast<const scalar_t*>(p.bias)[oc]) : opmath_t(0);
  const int h0 = oh * p.stride[0] - p.pad[0], w0 = ow * p.stride[1] - p.pad[1];
  for (int ic = 0; ic < cg_in; ++ic) {
    const scalar_t* plane = in + static_cast<long long>(ic) * H * W;
    const scalar_t* wk = w + static_cast<long long>(ic) * KH * KW;
#pragma unroll
    for (int kh = 0; kh < KH; ++kh) {
      const int ih = h0 + kh * p.dil[0];
#pragma unroll
      for (int kw = 0; kw < KW; ++kw) {
        const int iw = w0 + kw * p.dil[1];
        if (ih >= 0 && ih < H && iw >= 0 && iw < W) {
          acc += pf_cast<opmath_t>(wk[kh * KW + kw]) * pf_cast<opmath_t>(plane[ih * W + iw]);
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

extern "C" __global__ void __launch_bounds__(256) pf_conv_transpose_direct(const PfConvParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n_out)) return;
  int ow, oh, oc, n;
  pf_conv_decompose(p, idx, ow, oh, oc, n);
  const int H = p.in_size[0], W = p.in_size[1], KH = p.k[0], KW = p.k[1];
  const int cg_in = p.c_in / p.groups, cg_out = p.c_out / p.groups;
  const int g = oc / cg_out, oc_g = oc - g * cg_out;
  opmath_t acc = p.bias != 0 ? pf_cast<opmath_t>(reinterpret_cast<const scalar_t*>(p.bias)[oc]) : opmath_t(0);
  const scalar_t* in = reinterpret_cast<const scalar_t*>(p.in);
  const scalar_t* weight = reinterpret_cast<const scalar_t*>(p.weight);
  for (int ic = 0; ic < cg_in; ++ic) {
    const int c = g * cg_in + ic;
    const scalar_t* plane = in + (static_cast<long long>(n) * p.c_in + c) * H * W;
    const scalar_t* wk = weight + (static_cast<long long>(c) * cg_out + oc_g) * KH * KW;
    for (int kh = 0; kh < KH; ++kh) {
      const int th = oh + p.pad[0] - kh * p.dil[0];  // = ih * stride
      if (th < 0 || th % p.stride[0] != 0) continue;
      const int ih = th / p.stride[0];
      if (ih >= H) continue;
      for (int kw = 0; kw < KW; ++kw) {
        const int tw = ow + p.pad[1] - kw * p.dil[1];
        if (tw < 0 || tw % p.stride[1] != 0) continue;
        const int iw = tw / p.stride[1];
        if (iw >= W) continue;
        acc += pf_cast<opmath_t>(wk[kh * KW + kw]) * pf_cast<opmath_t>(plane[ih * W + iw]);
      }
    }
  }
  reinterpret_cast<scalar_t*>(p.out)[idx] = pf_cast<scalar_t>(acc);
}
