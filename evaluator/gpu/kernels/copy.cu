// pf-dtypes: bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64
// Copies with dtype conversion, and the creation kernels (fill, arange,
// linspace, eye, triu/tril). The program dtype is the destination's.
//
// pf_copy_from_<src>_vec: contiguous, aligned source and destination, one
//   vector of PF_COPY_VEC(src) elements per thread (at most 16 bytes on
//   either side), 128 threads per block.
// pf_copy_strided: any source dtype and strides, 4 elements per thread.

#define PF_COPY_VEC_FOR(SRC_SIZE) \
  (16 / ((SRC_SIZE) > (int)sizeof(scalar_t) ? (SRC_SIZE) : (int)sizeof(scalar_t)) > 8 ? 8 : 16 / ((SRC_SIZE) > (int)sizeof(scalar_t) ? (SRC_SIZE) : (int)sizeof(scalar_t)))

template <class Src>
__device__ __forceinline__ void pf_copy_vec(const PfCopyParams& p) {
  constexpr int N = PF_COPY_VEC_FOR((int)sizeof(Src));
  const long long base =
      (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * static_cast<long long>(N);
  if (base >= p.n) return;
  const Src* src = reinterpret_cast<const Src*>(p.in) + base;
  scalar_t* dst = reinterpret_cast<scalar_t*>(p.out) + base;
  if (base + N <= p.n) {
    pf_vec<Src, N> w = *reinterpret_cast<const pf_vec<Src, N>*>(src);
    pf_vec<scalar_t, N> r;
#pragma unroll
    for (int j = 0; j < N; ++j) r.v[j] = pf_cast<scalar_t>(w.v[j]);
    *reinterpret_cast<pf_vec<scalar_t, N>*>(dst) = r;
  } else {
    for (long long j = 0; base + j < p.n; ++j) dst[j] = pf_cast<scalar_t>(src[j]);
  }
}

// Bool sources are read as bytes (any non-zero byte is true).
struct pf_bool_byte {
  unsigned char b;
};
template <>
__device__ __forceinline__ void pf_copy_vec<pf_bool_byte>(const PfCopyParams& p) {
  constexpr int N = PF_COPY_VEC_FOR(1);
  const long long base =
      (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * static_cast<long long>(N);
  if (base >= p.n) return;
  const unsigned char* src = reinterpret_cast<const unsigned char*>(p.in) + base;
  scalar_t* dst = reinterpret_cast<scalar_t*>(p.out) + base;
  if (base + N <= p.n) {
    pf_vec<unsigned char, N> w = *reinterpret_cast<const pf_vec<unsigned char, N>*>(src);
    pf_vec<scalar_t, N> r;
#pragma unroll
    for (int j = 0; j < N; ++j) r.v[j] = pf_cast<scalar_t>(w.v[j] != 0);
    *reinterpret_cast<pf_vec<scalar_t, N>*>(dst) = r;
  } else {
    for (long long j = 0; base + j < p.n; ++j) dst[j] = pf_cast<scalar_t>(src[j] != 0);
  }
}

#define PF_COPY_FROM(NAME, SRC)                                                         \
  extern "C" __global__ void __launch_bounds__(PF_EW_THREADS)                           \
      pf_copy_from_##NAME##_vec(const PfCopyParams p) {                                 \
    pf_copy_vec<SRC>(p);                                                                \
  }
PF_COPY_FROM(bool, pf_bool_byte)
PF_COPY_FROM(uint8, unsigned char)
PF_COPY_FROM(int8, signed char)
PF_COPY_FROM(int16, short)
PF_COPY_FROM(int32, int)
PF_COPY_FROM(int64, long long)
PF_COPY_FROM(float16, pf_half)
PF_COPY_FROM(bfloat16, pf_bf16)
PF_COPY_FROM(float32, float)
PF_COPY_FROM(float64, double)

// Loads before stores, as the strided elementwise kernels (elementwise.cuh).
extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_copy_strided(const PfCopyParams p) {
  const unsigned int first = blockIdx.x * (PF_EW_THREADS * PF_EW_STRIDED_WORK) + threadIdx.x;
  const unsigned int n = static_cast<unsigned int>(p.n);
  scalar_t v[PF_EW_STRIDED_WORK];
  unsigned int out_off[PF_EW_STRIDED_WORK];
#pragma unroll
  for (int w = 0; w < PF_EW_STRIDED_WORK; ++w) {
    const unsigned int idx = first + w * PF_EW_THREADS;
    if (idx >= n) break;
    unsigned int off[2];
    pf_offsets<2>(p.oc, idx, off);
    out_off[w] = off[0];
    const char* src = reinterpret_cast<const char*>(p.in) + off[1];
    v[w] = p.in_dtype == PF_DTYPE ? pf_load<scalar_t>(src) : pf_load_dyn<scalar_t>(src, p.in_dtype);
  }
#pragma unroll
  for (int w = 0; w < PF_EW_STRIDED_WORK; ++w) {
    if (first + w * PF_EW_THREADS >= n) return;
    *reinterpret_cast<scalar_t*>(reinterpret_cast<char*>(p.out) + out_off[w]) = v[w];
  }
}

// --- creation -------------------------------------------------------------------------

__device__ __forceinline__ scalar_t pf_fill_value(const PfFillParams& p) {
  if constexpr (pf_is_float<scalar_t>::value) {
    return pf_cast<scalar_t>(p.value);
  } else {
    return pf_cast<scalar_t>(p.value_i);
  }
}

// Contiguous fill: one 16-byte vector per thread (out is 256-byte aligned).
extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_fill(const PfFillParams p) {
  constexpr int N = PF_VEC;
  const long long base =
      (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * static_cast<long long>(N);
  if (base >= p.n) return;
  const scalar_t v = pf_fill_value(p);
  scalar_t* dst = reinterpret_cast<scalar_t*>(p.out) + base;
  if (base + N <= p.n) {
    pf_vec<scalar_t, N> r;
#pragma unroll
    for (int j = 0; j < N; ++j) r.v[j] = v;
    *reinterpret_cast<pf_vec<scalar_t, N>*>(dst) = r;
  } else {
    for (long long j = 0; base + j < p.n; ++j) dst[j] = v;
  }
}

// arange: start + i * step, in the accumulate type PyTorch uses (float for
// float32 and the 16-bit floats, double for float64). Integer outputs: exact
// int64 arithmetic when rows == 1 (all bounds integers), else double.
extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_arange(const PfFillParams p) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  scalar_t* dst = reinterpret_cast<scalar_t*>(p.out);
  if constexpr (pf_is_float<scalar_t>::value) {
    const opmath_t start = static_cast<opmath_t>(p.value), step = static_cast<opmath_t>(p.step);
    dst[i] = pf_cast<scalar_t>(start + step * static_cast<opmath_t>(i));
  } else if (p.rows == 1) {
    dst[i] = pf_cast<scalar_t>(static_cast<long long>(static_cast<unsigned long long>(p.value_i) +
                                                      static_cast<unsigned long long>(i * p.step_i)));
  } else {
    dst[i] = pf_cast<scalar_t>(p.value + static_cast<double>(i) * p.step);
  }
}

// linspace: PyTorch's symmetric form in opmath (double for integers).
extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_linspace(const PfFillParams p) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  scalar_t* dst = reinterpret_cast<scalar_t*>(p.out);
  if constexpr (pf_is_float<scalar_t>::value) {
    const opmath_t start = static_cast<opmath_t>(p.value), end = static_cast<opmath_t>(p.end);
    const opmath_t step = static_cast<opmath_t>(p.step);
    opmath_t v = p.n == 1 ? start
                          : (i < p.half_n ? start + step * static_cast<opmath_t>(i)
                                          : end - step * static_cast<opmath_t>(p.n - 1 - i));
    dst[i] = pf_cast<scalar_t>(v);
  } else {
    double v = p.n == 1 ? p.value
                        : (i < p.half_n ? p.value + p.step * static_cast<double>(i)
                                        : p.end - p.step * static_cast<double>(p.n - 1 - i));
    dst[i] = pf_cast<scalar_t>(v);
  }
}

// eye: ones on the diagonal of a rows x cols matrix.
extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_eye(const PfFillParams p) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  const long long r = i / p.cols, c = i - r * p.cols;
  reinterpret_cast<scalar_t*>(p.out)[i] = pf_cast<scalar_t>(r == c ? 1 : 0);
}

// triu (value_i = 1) / tril (value_i = 0): a contiguous copy of the input
// (strided, same dtype) keeping col - row >= diagonal (triu) or <= (tril).
extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_triangle(const PfFillParams p) {
  unsigned int idx = blockIdx.x * (PF_EW_THREADS * PF_EW_STRIDED_WORK) + threadIdx.x;
  const unsigned int n = static_cast<unsigned int>(p.n);
#pragma unroll
  for (int w = 0; w < PF_EW_STRIDED_WORK; ++w, idx += PF_EW_THREADS) {
    if (idx >= n) return;
    unsigned int off[2];
    pf_offsets<2>(p.oc, idx, off);
    const long long c = idx % p.cols, r = (idx / p.cols) % p.rows;
    const bool keep = p.value_i ? c - r >= p.diagonal : c - r <= p.diagonal;
    scalar_t v = keep ? pf_load<scalar_t>(reinterpret_cast<const char*>(p.in) + off[1])
                      : pf_cast<scalar_t>(0);
    *reinterpret_cast<scalar_t*>(reinterpret_cast<char*>(p.out) + off[0]) = v;
  }
}
