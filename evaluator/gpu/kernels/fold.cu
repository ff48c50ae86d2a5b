// pf-dtypes: float16 bfloat16 float32 float64
// pf-requires: pf_ops_abi.cuh
// F.unfold / F.fold (ops_fold.cpp), PyTorch's im2col_kernel and
// col2im_kernel with the batch folded into the thread index (PyTorch
// launches once per sample):
//   pf_im2col: one thread per (n, c, oh, ow) writes its kh * kw column
//     elements, zero in the padding; an exact copy;
//   pf_col2im: one thread per image element gathers every column element
//     that lands on it, summing in opmath.

extern "C" __global__ void __launch_bounds__(512) pf_im2col(const PfFoldParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n)) return;
  const unsigned int q = pf_div(p.w_div, idx);
  const int ow = static_cast<int>(idx - q * p.w_div.divisor);
  const unsigned int plane = pf_div(p.h_div, q);  // n * C + c
  const int oh = static_cast<int>(q - plane * p.h_div.divisor);
  const int H = p.size[0], W = p.size[1];
  const long long L = static_cast<long long>(p.blocks[0]) * p.blocks[1];
  const int h0 = oh * p.stride[0] - p.pad[0], w0 = ow * p.stride[1] - p.pad[1];
  const scalar_t* im =
      reinterpret_cast<const scalar_t*>(p.im) + static_cast<long long>(plane) * H * W;
  scalar_t* col = reinterpret_cast<scalar_t*>(p.col) +
                  static_cast<long long>(plane) * p.k[0] * p.k[1] * L +
                  static_cast<long long>(oh) * p.blocks[1] + ow;
  for (int i = 0; i < p.k[0]; ++i) {
    const int h = h0 + i * p.dil[0];
    for (int j = 0; j < p.k[1]; ++j) {
      const int w = w0 + j * p.dil[1];
      *col = h >= 0 && w >= 0 && h < H && w < W ? im[static_cast<long long>(h) * W + w]
                                                : pf_cast<scalar_t>(0);
      col += L;
    }
  }
}

extern "C" __global__ void __launch_bounds__(512) pf_col2im(const PfFoldParams p) {
  const unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n)) return;
  const unsigned int q = pf_div(p.w_div, idx);
  const int w_im = static_cast<int>(idx - q * p.w_div.divisor) + p.pad[1];
  const unsigned int plane = pf_div(p.h_div, q);  // n * C + c
  const int h_im = static_cast<int>(q - plane * p.h_div.divisor) + p.pad[0];
  const int OH = p.blocks[0], OW = p.blocks[1];
  const int extent_h = (p.k[0] - 1) * p.dil[0] + 1, extent_w = (p.k[1] - 1) * p.dil[1] + 1;
  const int h_start = h_im < extent_h ? 0 : (h_im - extent_h) / p.stride[0] + 1;
  const int w_start = w_im < extent_w ? 0 : (w_im - extent_w) / p.stride[1] + 1;
  const int h_end = min(h_im / p.stride[0] + 1, OH);
  const int w_end = min(w_im / p.stride[1] + 1, OW);
  const scalar_t* col = reinterpret_cast<const scalar_t*>(p.col) +
                        static_cast<long long>(plane) * p.k[0] * p.k[1] * OH * OW;
  opmath_t val = 0;
  for (int oh = h_start; oh < h_end; ++oh) {
    for (int ow = w_start; ow < w_end; ++ow) {
      int hk = h_im - oh * p.stride[0];
      int wk = w_im - ow * p.stride[1];
      if (hk % p.dil[0] == 0 && wk % p.dil[1] == 0) {
        hk /= p.dil[0];
        wk /= p.dil[1];
        const long long c = ((static_cast<long long>(hk) * p.k[1] + wk) * OH + oh) * OW + ow;
        val += pf_cast<opmath_t>(col[c]);
      }
    }
  }
  reinterpret_cast<scalar_t*>(p.im)[idx] = pf_cast<scalar_t>(val);
}
