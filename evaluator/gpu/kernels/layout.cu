// pf-dtypes: uint8 int16 int32 int64
// pf-requires: pf_ops_abi.cuh
// Exact data movement (ops_layout.cpp, ops_index.cpp): every element is
// copied bit for bit, so one program per element width serves all dtypes of
// that width (the host picks uint8 for bool/int8, int16 for float16/bfloat16,
// int32 for float32, int64 for float64). scalar_t is the unit moved.
//
// pf_cat / pf_cat_vec: PyTorch's batched cat (CatArrayBatchedCopy) for
//   contiguous inputs of one dtype: blockIdx.y picks the input, a grid-stride
//   loop copies its elements (pf_cat_vec: 16-byte vectors when every input
//   and the output allow it).
// pf_cat_strided: the same for inputs of any strides (PyTorch's strided
//   path of CatArrayBatchedCopy): each element's coordinates, decomposed
//   over the input's sizes, locate it in the input and in the output.
// pf_remap: out[i] = in[map(coordinates of i)] with a per-dim source map
//   (flip, roll, reflect / replicate / circular / constant padding, identity:
//   a strided copy), 4 elements per thread as the strided elementwise
//   kernels; pf_remap_vec: the same over 16-byte units, when the innermost
//   dim is copied whole and contiguous and every offset stays 16-byte aligned.
// pf_index: gathers by up to three index tensors (index_select, gather,
//   embedding, advanced indexing), 4 elements per thread; pf_index_rows:
//   whole rows by one index (embedding, index_select of dim 0), 16 bytes per
//   thread and one index load per chunk, as PyTorch's vectorized_gather_kernel.

struct alignas(16) pf_u128 {
  unsigned long long lo, hi;
};

template <class U>
__device__ __forceinline__ void pf_cat_impl(const PfCatParams& p) {
  const int k = blockIdx.y;
  const U* in = reinterpret_cast<const U*>(p.in[k].ptr);
  U* out = reinterpret_cast<U*>(p.out);
  const unsigned int n = p.in[k].numel;
  const PfDivider chunk = p.in[k].chunk;
  const unsigned int offset = p.in[k].out_offset;
  const unsigned int step = gridDim.x * blockDim.x;
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    const unsigned int row = pf_div(chunk, i);
    const unsigned int col = i - row * chunk.divisor;
    out[row * p.out_row + offset + col] = in[i];
  }
}

extern "C" __global__ void __launch_bounds__(PF_CAT_THREADS) pf_cat(const PfCatParams p) {
  pf_cat_impl<scalar_t>(p);
}

extern "C" __global__ void __launch_bounds__(PF_CAT_THREADS) pf_cat_vec(const PfCatParams p) {
  pf_cat_impl<pf_u128>(p);
}

extern "C" __global__ void __launch_bounds__(PF_CAT_THREADS) pf_cat_strided(const PfCatStridedParams p) {
  const PfCatStridedEntry& e = p.in[blockIdx.y];
  const scalar_t* in = reinterpret_cast<const scalar_t*>(e.ptr);
  scalar_t* out = reinterpret_cast<scalar_t*>(p.out) + e.out_offset;
  const unsigned int n = e.numel;
  const unsigned int step = gridDim.x * blockDim.x;
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    unsigned int rem = i, in_off = 0, out_off = 0;
#pragma unroll
    for (int d = 0; d < PF_CAT_MAX_DIMS; ++d) {
      if (d == p.dims - 1) {  // the outermost coordinate is what is left
        in_off += rem * e.strides[d];
        out_off += rem * p.out_strides[d];
        break;
      }
      const PfDivider size = d == p.cat_dim ? e.cat_size : p.sizes[d];
      const unsigned int q = pf_div(size, rem);
      const unsigned int c = rem - q * size.divisor;
      in_off += c * e.strides[d];
      out_off += c * p.out_strides[d];
      rem = q;
    }
    out[out_off] = in[in_off];
  }
}

// The source coordinate of output coordinate i along one dim, or -1 (fill).
__device__ __forceinline__ int pf_remap_coord(int mode, int i, int n, int a) {
  int j = i - a;
  switch (mode) {
    case PF_REMAP_FLIP: return n - 1 - i;
    case PF_REMAP_SHIFT:
      if (j < 0) j += n;
      else if (j >= n) j -= n;
      return j;
    case PF_REMAP_REFLECT:
      if (j < 0) j = -j;
      if (j >= n) j = 2 * (n - 1) - j;
      return j;
    case PF_REMAP_REPLICATE: return j < 0 ? 0 : (j >= n ? n - 1 : j);
    case PF_REMAP_CONSTANT: return (j < 0 || j >= n) ? -1 : j;
    default: return i;
  }
}

__device__ __forceinline__ scalar_t pf_remap_fill(unsigned long long bits, scalar_t*) {
  return static_cast<scalar_t>(bits);  // the low bytes: the bit pattern
}
__device__ __forceinline__ pf_u128 pf_remap_fill(unsigned long long bits, pf_u128*) {
  return pf_u128{bits, bits};  // the host repeated the element's pattern over 8 bytes
}

// Both gathers load every work item before storing any, as the strided
// elementwise kernels (elementwise.cuh): the loads are then in flight together.
template <class U>
__device__ __forceinline__ void pf_remap_impl(const PfRemapParams& p) {
  const unsigned int first = blockIdx.x * (PF_EW_THREADS * PF_EW_STRIDED_WORK) + threadIdx.x;
  const unsigned int n = static_cast<unsigned int>(p.n);
  const U* in = reinterpret_cast<const U*>(p.in);
  U* out = reinterpret_cast<U*>(p.out);
  const U fill = pf_remap_fill(p.fill, static_cast<U*>(nullptr));
  U v[PF_EW_STRIDED_WORK];
#pragma unroll
  for (int w = 0; w < PF_EW_STRIDED_WORK; ++w) {
    const unsigned int idx = first + w * PF_EW_THREADS;
    if (idx >= n) break;
    unsigned int rem = idx;
    long long off = 0;
    bool inside = true;
#pragma unroll
    for (int d = 0; d < PF_MAX_DIMS; ++d) {
      if (d == p.dims) break;
      const unsigned int q = pf_div(p.out_sizes[d], rem);
      const int i = static_cast<int>(rem - q * p.out_sizes[d].divisor);
      rem = q;
      const int src = pf_remap_coord(p.modes[d], i, p.in_sizes[d], p.shift[d]);
      inside = inside && src >= 0;
      off += static_cast<long long>(src) * p.in_strides[d];
    }
    v[w] = inside ? in[off] : fill;
  }
#pragma unroll
  for (int w = 0; w < PF_EW_STRIDED_WORK; ++w) {
    const unsigned int idx = first + w * PF_EW_THREADS;
    if (idx >= n) return;
    out[idx] = v[w];
  }
}

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_remap(const PfRemapParams p) {
  pf_remap_impl<scalar_t>(p);
}

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_remap_vec(const PfRemapParams p) {
  pf_remap_impl<pf_u128>(p);
}

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_index(const PfIndexParams p) {
  const unsigned int first = blockIdx.x * (PF_EW_THREADS * PF_EW_STRIDED_WORK) + threadIdx.x;
  const unsigned int n = static_cast<unsigned int>(p.n);
  const char* src = reinterpret_cast<const char*>(p.src);
  scalar_t* out = reinterpret_cast<scalar_t*>(p.out);
  scalar_t r[PF_EW_STRIDED_WORK];
#pragma unroll
  for (int w = 0; w < PF_EW_STRIDED_WORK; ++w) {
    const unsigned int idx = first + w * PF_EW_THREADS;
    if (idx >= n) break;
    unsigned int off[1 + PF_INDEX_MAX];
    pf_offsets<1 + PF_INDEX_MAX>(p.oc, idx, off);
    long long element = 0;
    bool inside = true;
#pragma unroll
    for (int k = 0; k < PF_INDEX_MAX; ++k) {
      if (k == p.count) break;
      long long v = pf_load_dyn<long long>(reinterpret_cast<const char*>(p.index[k]) + off[k + 1], p.index_dtype[k]);
      if (p.wrap && v < 0) v += p.sizes[k];
      inside = inside && v >= 0 && v < p.sizes[k];
      element += v * p.strides[k];
    }
    if (inside) {
      r[w] = *reinterpret_cast<const scalar_t*>(src + off[0] + element * static_cast<long long>(sizeof(scalar_t)));
    } else {
      r[w] = scalar_t(0);
    }
  }
#pragma unroll
  for (int w = 0; w < PF_EW_STRIDED_WORK; ++w) {
    const unsigned int idx = first + w * PF_EW_THREADS;
    if (idx >= n) return;
    out[idx] = r[w];
  }
}

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_index_rows(const PfIndexParams p) {
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= static_cast<unsigned int>(p.n)) return;
  const unsigned int row = pf_div(p.row_chunks, i);
  const unsigned int chunk = i - row * p.row_chunks.divisor;
  unsigned int off[1 + PF_INDEX_MAX];
  pf_offsets<1 + PF_INDEX_MAX>(p.oc, row, off);
  long long v = pf_load_dyn<long long>(reinterpret_cast<const char*>(p.index[0]) + off[1], p.index_dtype[0]);
  if (p.wrap && v < 0) v += p.sizes[0];
  pf_u128 r{0, 0};
  if (v >= 0 && v < p.sizes[0]) {
    const char* src = reinterpret_cast<const char*>(p.src) + off[0] +
                      v * p.strides[0] * static_cast<long long>(sizeof(scalar_t));
    r = reinterpret_cast<const pf_u128*>(src)[chunk];
  }
  reinterpret_cast<pf_u128*>(p.out)[i] = r;
}
