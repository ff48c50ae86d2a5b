// pf-dtypes: float16 bfloat16 float32 float64
// pf-requires: pf_ops_abi.cuh
// scaled_dot_product_attention as one fused kernel (ops_attention.cpp), the
// structure of PyTorch's fused SDPA kernels (flash / memory-efficient): no
// [L, S] score matrix in memory, an online softmax over key tiles staged in
// shared memory, the output normalised once at the end.
//
// Block: PF_ATTN_WARPS warps over consecutive query rows of one problem
// (blockIdx.x = problem * row_tiles + tile), one warp per row. A lane holds
// query and accumulator elements lane, lane + 32, ... (head dims up to
// PF_ATTN_MAX_HEAD). Per key: the dot product is a warp reduction, then
// m / l / acc are rescaled (online softmax). Scores and sums in opmath. A
// row whose keys are all masked gives zeros (as PyTorch's fused kernels).

#define PF_ATTN_WARPS 4
#define PF_ATTN_PER_LANE (PF_ATTN_MAX_HEAD / 32)

extern "C" __global__ void __launch_bounds__(PF_ATTN_WARPS * 32) pf_attention(const PfAttentionParams p) {
  extern __shared__ __align__(16) unsigned char pf_attn_smem[];
  scalar_t* ks = reinterpret_cast<scalar_t*>(pf_attn_smem);  // [key_tile][e]
  scalar_t* vs = ks + p.key_tile * p.e;                        // [key_tile][ev]
  const int row_tiles = (p.l + PF_ATTN_WARPS - 1) / PF_ATTN_WARPS;
  const long long problem = blockIdx.x / row_tiles;
  const int tile = static_cast<int>(blockIdx.x - problem * row_tiles);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row = tile * PF_ATTN_WARPS + warp;
  const bool active = row < p.l;

  unsigned int off[4];
  pf_offsets<4>(p.oc, static_cast<unsigned int>(problem), off);
  const scalar_t* q = reinterpret_cast<const scalar_t*>(reinterpret_cast<const char*>(p.q) + off[0]);
  const scalar_t* k = reinterpret_cast<const scalar_t*>(reinterpret_cast<const char*>(p.k) + off[1]);
  const scalar_t* v = reinterpret_cast<const scalar_t*>(reinterpret_cast<const char*>(p.v) + off[2]);
  const char* mask = p.mask != 0 ? reinterpret_cast<const char*>(p.mask) + off[3] : nullptr;

  opmath_t qr[PF_ATTN_PER_LANE], acc[PF_ATTN_PER_LANE];
#pragma unroll
  for (int t = 0; t < PF_ATTN_PER_LANE; ++t) {
    const int d = lane + 32 * t;
    qr[t] = (active && d < p.e) ? pf_cast<opmath_t>(q[static_cast<long long>(row) * p.q_row + d]) : opmath_t(0);
    acc[t] = opmath_t(0);
  }
  const opmath_t scale = static_cast<opmath_t>(p.scale);
  const opmath_t neg_inf = -pf_infinity<opmath_t>();
  opmath_t m = neg_inf, l = opmath_t(0);
  const long long elem = p.mask_dtype == PF_TAG_BOOL ? 1 : static_cast<long long>(sizeof(scalar_t));

  for (int j0 = 0; j0 < p.s; j0 += p.key_tile) {
    const int n = min(p.key_tile, p.s - j0);
    __syncthreads();
    for (int i = threadIdx.x; i < n * p.e; i += blockDim.x) {
      const int j = i / p.e, d = i - j * p.e;
      ks[i] = k[static_cast<long long>(j0 + j) * p.k_row + d];
    }
    for (int i = threadIdx.x; i < n * p.ev; i += blockDim.x) {
      const int j = i / p.ev, d = i - j * p.ev;
      vs[i] = v[static_cast<long long>(j0 + j) * p.v_row + d];
    }
    __syncthreads();
    if (!active) continue;
    for (int jj = 0; jj < n; ++jj) {
      const int j = j0 + jj;
      opmath_t dot = 0;
#pragma unroll
      for (int t = 0; t < PF_ATTN_PER_LANE; ++t) {
        const int d = lane + 32 * t;
        if (d < p.e) dot += qr[t] * pf_cast<opmath_t>(ks[jj * p.e + d]);
      }
      dot = pf_warp_reduce(dot, [](opmath_t a, opmath_t b) { return a + b; });
      opmath_t s = dot * scale;
      if (p.causal && j > row) s = neg_inf;
      if (mask != nullptr) {
        const char* mp = mask + (static_cast<long long>(row) * p.mask_row + static_cast<long long>(j) * p.mask_col) * elem;
        if (p.mask_kind == PF_ATTN_MASK_BOOL) {
          if (*reinterpret_cast<const unsigned char*>(mp) == 0) s = neg_inf;
        } else {
          s += pf_load_dyn<opmath_t>(mp, p.mask_dtype);
        }
      }
      if (s == neg_inf) continue;  // warp-uniform: every lane has the same s
      const opmath_t m_new = s > m ? s : m;
      const opmath_t corr = pf_exp(m - m_new);
      const opmath_t w = pf_exp(s - m_new);
      l = l * corr + w;
#pragma unroll
      for (int t = 0; t < PF_ATTN_PER_LANE; ++t) {
        const int d = lane + 32 * t;
        const opmath_t vv = d < p.ev ? pf_cast<opmath_t>(vs[jj * p.ev + d]) : opmath_t(0);
        acc[t] = acc[t] * corr + w * vv;
      }
      m = m_new;
    }
  }
  if (!active) return;
  scalar_t* out = reinterpret_cast<scalar_t*>(p.out) + (problem * p.l + row) * p.ev;
  const opmath_t inv = l > opmath_t(0) ? opmath_t(1) / l : opmath_t(0);
#pragma unroll
  for (int t = 0; t < PF_ATTN_PER_LANE; ++t) {
    const int d = lane + 32 * t;
    if (d < p.ev) out[d] = pf_cast<scalar_t>(acc[t] * inv);
  }
}
