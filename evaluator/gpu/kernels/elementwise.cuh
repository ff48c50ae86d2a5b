// The elementwise loop skeleton (PyTorch's Loops.cuh structure): one kernel
// per op and program dtype, in two variants.
//   pf_<op>_vec:     every tensor operand contiguous, of the op's static
//                    operand type and 16-byte aligned: one 16-byte vector per
//                    thread (PF_VEC elements), 128 threads per block, 64-bit
//                    indexing, scalar tail.
//   pf_<op>_strided: any strides (broadcasts are stride 0), any input dtypes
//                    (converted on load), an offset calculator over up to 8
//                    coalesced dims; 4 elements per thread (all loaded
//                    before any is stored), 32-bit indexing.
// An op is a struct with
//   typedef ... out_t;          scalar_t, or bool for predicates
//   enum { nin = N };           inputs (1..3)
//   enum { bool_args = mask };  inputs whose static type is bool (masks)
//   static __device__ R apply(const PfElementwiseParams& p, const opmath_t* v);
// where v holds the inputs converted to opmath_t (bool masks as 0/1) and R
// converts to out_t. PF_ELEMENTWISE(name, op) defines both kernels.

template <class T>
__device__ __forceinline__ T pf_param(const PfElementwiseParams& p, int i) {
  if constexpr (pf_is_float<T>::value) {
    return static_cast<T>(p.s[i]);
  } else {
    return pf_cast<T>(p.si[i]);
  }
}

template <class T>
__device__ __forceinline__ T pf_literal(const PfElementwiseParams& p, int k) {
  if constexpr (pf_is_float<T>::value) {
    return static_cast<T>(p.lit[k]);
  } else {
    return pf_cast<T>(p.lit_i[k]);
  }
}

// Input k of element i in the vectorised kernels' layout (contiguous, static type).
template <class Op>
__device__ __forceinline__ opmath_t pf_ew_load1(const PfElementwiseParams& p, int k, long long i) {
  if (p.in_kind[k] == PF_OPERAND_LITERAL) return pf_literal<opmath_t>(p, k);
  if ((Op::bool_args >> k) & 1) return pf_cast<opmath_t>(reinterpret_cast<const unsigned char*>(p.in[k])[i] != 0);
  return pf_cast<opmath_t>(reinterpret_cast<const scalar_t*>(p.in[k])[i]);
}

template <class Op>
__device__ __forceinline__ void pf_ew_vec(const PfElementwiseParams& p) {
  constexpr int N = PF_VEC;
  typedef typename Op::out_t out_t;
  const long long base =
      (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * static_cast<long long>(N);
  if (base >= p.n) return;
  out_t* dst = reinterpret_cast<out_t*>(p.out);
  if (base + N > p.n) {
    // The tail: element by element (no arrays indexed at run time, so no local memory).
    for (long long i = base; i < p.n; ++i) {
      opmath_t a[Op::nin];
#pragma unroll
      for (int k = 0; k < Op::nin; ++k) a[k] = pf_ew_load1<Op>(p, k, i);
      dst[i] = pf_cast<out_t>(Op::apply(p, a));
    }
    return;
  }
  opmath_t v[Op::nin][N];
#pragma unroll
  for (int k = 0; k < Op::nin; ++k) {
    if (p.in_kind[k] == PF_OPERAND_LITERAL) {
      const opmath_t lit = pf_literal<opmath_t>(p, k);
#pragma unroll
      for (int j = 0; j < N; ++j) v[k][j] = lit;
    } else if ((Op::bool_args >> k) & 1) {
      const pf_vec<unsigned char, N> w =
          *reinterpret_cast<const pf_vec<unsigned char, N>*>(reinterpret_cast<const unsigned char*>(p.in[k]) + base);
#pragma unroll
      for (int j = 0; j < N; ++j) v[k][j] = pf_cast<opmath_t>(w.v[j] != 0);
    } else {
      const pf_vec<scalar_t, N> w =
          *reinterpret_cast<const pf_vec<scalar_t, N>*>(reinterpret_cast<const scalar_t*>(p.in[k]) + base);
#pragma unroll
      for (int j = 0; j < N; ++j) v[k][j] = pf_cast<opmath_t>(w.v[j]);
    }
  }
  pf_vec<out_t, N> r;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    opmath_t a[Op::nin];
#pragma unroll
    for (int k = 0; k < Op::nin; ++k) a[k] = v[k][j];
    r.v[j] = pf_cast<out_t>(Op::apply(p, a));
  }
  *reinterpret_cast<pf_vec<out_t, N>*>(dst + base) = r;
}

template <class Op>
__device__ __forceinline__ void pf_ew_strided(const PfElementwiseParams& p) {
  typedef typename Op::out_t out_t;
  const unsigned int first = blockIdx.x * (PF_EW_THREADS * PF_EW_STRIDED_WORK) + threadIdx.x;
  const unsigned int n = static_cast<unsigned int>(p.n);
  // Every work item's loads before any store (PyTorch's Loops.cuh order): a
  // store could alias the next item's loads, so the compiler would otherwise
  // issue them one memory latency apart; small strided ops are latency-bound.
  opmath_t a[PF_EW_STRIDED_WORK][Op::nin];
  unsigned int out_off[PF_EW_STRIDED_WORK];
#pragma unroll
  for (int w = 0; w < PF_EW_STRIDED_WORK; ++w) {
    const unsigned int idx = first + w * PF_EW_THREADS;
    if (idx >= n) break;
    unsigned int off[Op::nin + 1];
    pf_offsets<Op::nin + 1>(p.oc, idx, off);
    out_off[w] = off[0];
#pragma unroll
    for (int k = 0; k < Op::nin; ++k) {
      const char* src = reinterpret_cast<const char*>(p.in[k]) + off[k + 1];
      if (p.in_kind[k] == PF_OPERAND_LITERAL) {
        a[w][k] = pf_literal<opmath_t>(p, k);
      } else if (p.in_dtype[k] == PF_DTYPE && !((Op::bool_args >> k) & 1)) {
        a[w][k] = pf_cast<opmath_t>(pf_load<scalar_t>(src));
      } else {
        a[w][k] = pf_load_dyn<opmath_t>(src, p.in_dtype[k]);
      }
    }
  }
#pragma unroll
  for (int w = 0; w < PF_EW_STRIDED_WORK; ++w) {
    if (first + w * PF_EW_THREADS >= n) return;
    *reinterpret_cast<out_t*>(reinterpret_cast<char*>(p.out) + out_off[w]) =
        pf_cast<out_t>(Op::apply(p, a[w]));
  }
}

#define PF_ELEMENTWISE(NAME, OP)                                                      \
  extern "C" __global__ void __launch_bounds__(PF_EW_THREADS)                         \
      pf_##NAME##_vec(const PfElementwiseParams p) {                                  \
    pf_ew_vec<OP>(p);                                                                 \
  }                                                                                   \
  extern "C" __global__ void __launch_bounds__(PF_EW_THREADS)                         \
      pf_##NAME##_strided(const PfElementwiseParams p) {                              \
    pf_ew_strided<OP>(p);                                                             \
  }
