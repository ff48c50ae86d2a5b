// pf-dtypes: bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64
// pf-requires: pf_ops_abi.cuh
// scatter / scatter_add (ops_index.cpp), PyTorch's scatter_gather kernel:
// one thread per index element writes (or atomically adds / multiplies) into
// the output, which already holds a copy of the input. Duplicate indices
// make assignment order-dependent, as in PyTorch; additions use atomics
// (native for float/double/int32/int64, a compare-and-swap loop on the
// enclosing 32-bit word for 8- and 16-bit types). bool "addition" is a
// logical or. Out-of-range indices are skipped.

// Applies `f` atomically to the element at p through a CAS loop on the
// aligned 32-bit word that contains it (1- and 2-byte types) or on the
// element itself (8 bytes).
template <class T, class F>
__device__ __forceinline__ void pf_atomic_update(T* p, F f) {
  if constexpr (sizeof(T) == 8) {
    unsigned long long* word = reinterpret_cast<unsigned long long*>(p);
    unsigned long long old = *word, assumed;
    do {
      assumed = old;
      T cur;
      memcpy(&cur, &assumed, 8);
      T next = f(cur);
      unsigned long long bits;
      memcpy(&bits, &next, 8);
      old = atomicCAS(word, assumed, bits);
    } while (assumed != old);
  } else if constexpr (sizeof(T) == 4) {
    unsigned int* word = reinterpret_cast<unsigned int*>(p);
    unsigned int old = *word, assumed;
    do {
      assumed = old;
      T cur;
      memcpy(&cur, &assumed, 4);
      T next = f(cur);
      unsigned int bits;
      memcpy(&bits, &next, 4);
      old = atomicCAS(word, assumed, bits);
    } while (assumed != old);
  } else {
    const unsigned long long addr = reinterpret_cast<unsigned long long>(p);
    unsigned int* word = reinterpret_cast<unsigned int*>(addr & ~3ull);
    const unsigned int shift = static_cast<unsigned int>(addr & 3ull) * 8u;
    const unsigned int mask = sizeof(T) == 1 ? 0xFFu : 0xFFFFu;
    unsigned int old = *word, assumed;
    do {
      assumed = old;
      const unsigned int field = (assumed >> shift) & mask;
      T cur;
      memcpy(&cur, &field, sizeof(T));
      T next = f(cur);
      unsigned int bits = 0;
      memcpy(&bits, &next, sizeof(T));
      old = atomicCAS(word, assumed, (assumed & ~(mask << shift)) | ((bits & mask) << shift));
    } while (assumed != old);
  }
}

// Templates, so that the branches for other types are never instantiated.
template <class T>
__device__ __forceinline__ void pf_scatter_add(T* p, T x) {
  if constexpr (pf_is_same<T, float>::value || pf_is_same<T, double>::value || pf_is_same<T, int>::value) {
    atomicAdd(p, x);
  } else if constexpr (pf_is_same<T, long long>::value) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(x));
  } else if constexpr (pf_is_same<T, bool>::value) {
    if (x) *p = true;
  } else {
    pf_atomic_update(p, [x](T cur) {
      if constexpr (pf_is_float<T>::value) {
        return pf_cast<T>(pf_cast<float>(cur) + pf_cast<float>(x));
      } else {
        return static_cast<T>(cur + x);
      }
    });
  }
}

template <class T>
__device__ __forceinline__ void pf_scatter_mul(T* p, T x) {
  if constexpr (pf_is_same<T, bool>::value) {
    if (!x) *p = false;
  } else {
    pf_atomic_update(p, [x](T cur) {
      if constexpr (pf_is_float<T>::value) {
        return pf_cast<T>(pf_cast<typename pf_opmath<T>::type>(cur) * pf_cast<typename pf_opmath<T>::type>(x));
      } else {
        return static_cast<T>(cur * x);
      }
    });
  }
}

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_scatter(const PfScatterParams p) {
  const unsigned int idx = blockIdx.x * PF_EW_THREADS + threadIdx.x;
  if (idx >= static_cast<unsigned int>(p.n)) return;
  unsigned int off[3];
  pf_offsets<3>(p.oc, idx, off);
  const char* ip = reinterpret_cast<const char*>(p.index) + off[1];
  const long long v = pf_load_dyn<long long>(ip, p.index_dtype);
  if (v < 0 || v >= p.dim_size) return;
  scalar_t* dst = reinterpret_cast<scalar_t*>(reinterpret_cast<char*>(p.out) + off[0]) + v * p.dim_stride;
  scalar_t x;
  if (p.src != 0) {
    x = pf_load_dyn<scalar_t>(reinterpret_cast<const char*>(p.src) + off[2], p.src_dtype);
  } else if constexpr (PF_SCALAR_IS_FLOAT) {
    x = pf_cast<scalar_t>(p.value);
  } else {
    x = pf_cast<scalar_t>(p.value_i);
  }
  switch (p.reduce) {
    case PF_SCATTER_ADD: pf_scatter_add(dst, x); break;
    case PF_SCATTER_MULTIPLY: pf_scatter_mul(dst, x); break;
    default: *dst = x; break;
  }
}
