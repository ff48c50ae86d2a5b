// pf-dtypes: bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64
// pf-requires: reduce.cuh
// Reductions over any dims (ops_reduction.cpp): sum / mean / nansum, prod,
// amax / amin, max / min with indices and argmax / argmin, any / all. The
// program dtype is the input's; accumulation is in float for float32 and the
// 16-bit floats, double for float64 and int64 for integers and bool (as
// PyTorch's acc types); results are stored in the output's dtype.
//
// flags: bit 0 nansum (skip NaN), bit 1 min instead of max, bit 2 write
// values and indices (max/min with dim) instead of indices only, bit 3 all
// instead of any.

template <class T> struct pf_acc { typedef long long type; };
template <> struct pf_acc<pf_half> { typedef float type; };
template <> struct pf_acc<pf_bf16> { typedef float type; };
template <> struct pf_acc<float> { typedef float type; };
template <> struct pf_acc<double> { typedef double type; };
typedef typename pf_acc<scalar_t>::type acc_scalar_t;
#define PF_ACC_IS_FLOAT (pf_is_float<acc_scalar_t>::value)

__device__ __forceinline__ acc_scalar_t pf_wrap_add(acc_scalar_t a, acc_scalar_t b) {
  if constexpr (PF_ACC_IS_FLOAT) {
    return a + b;
  } else {
    return static_cast<acc_scalar_t>(static_cast<unsigned long long>(a) + static_cast<unsigned long long>(b));
  }
}
__device__ __forceinline__ acc_scalar_t pf_wrap_mul(acc_scalar_t a, acc_scalar_t b) {
  if constexpr (PF_ACC_IS_FLOAT) {
    return a * b;
  } else {
    return static_cast<acc_scalar_t>(static_cast<unsigned long long>(a) * static_cast<unsigned long long>(b));
  }
}

// sum, mean (factor = 1/n), nansum (flags bit 0).
struct op_sum {
  struct acc_t {
    acc_scalar_t v;
  };
  static __device__ acc_t identity(const PfReduceParams&) { return acc_t{acc_scalar_t(0)}; }
  static __device__ acc_t fold(const PfReduceParams& p, acc_t a, opmath_t x, long long, long long) {
    if ((p.flags & 1) && pf_isnan(x)) return a;
    return acc_t{pf_wrap_add(a.v, pf_cast<acc_scalar_t>(x))};
  }
  static __device__ acc_t combine(const PfReduceParams&, acc_t a, acc_t b) {
    return acc_t{pf_wrap_add(a.v, b.v)};
  }
  static __device__ void project(const PfReduceParams& p, acc_t a, long long, char* out, long long*) {
    if constexpr (PF_ACC_IS_FLOAT) {
      pf_store_dyn(out, p.out_dtype, p.factor != 1.0 ? a.v * static_cast<acc_scalar_t>(p.factor) : a.v);
    } else {
      pf_store_dyn(out, p.out_dtype, a.v);
    }
  }
};

struct op_prod {
  struct acc_t {
    acc_scalar_t v;
  };
  static __device__ acc_t identity(const PfReduceParams&) { return acc_t{acc_scalar_t(1)}; }
  static __device__ acc_t fold(const PfReduceParams&, acc_t a, opmath_t x, long long, long long) {
    return acc_t{pf_wrap_mul(a.v, pf_cast<acc_scalar_t>(x))};
  }
  static __device__ acc_t combine(const PfReduceParams&, acc_t a, acc_t b) {
    return acc_t{pf_wrap_mul(a.v, b.v)};
  }
  static __device__ void project(const PfReduceParams& p, acc_t a, long long, char* out, long long*) {
    pf_store_dyn(out, p.out_dtype, a.v);
  }
};

__device__ __forceinline__ acc_scalar_t pf_extreme(bool lowest) {
  if constexpr (PF_ACC_IS_FLOAT) {
    return lowest ? -pf_infinity<acc_scalar_t>() : pf_infinity<acc_scalar_t>();
  } else {
    return lowest ? static_cast<acc_scalar_t>(-0x7FFFFFFFFFFFFFFFLL - 1)
                  : static_cast<acc_scalar_t>(0x7FFFFFFFFFFFFFFFLL);
  }
}

// amax / amin (flags bit 1): NaN propagates.
struct op_amax {
  struct acc_t {
    acc_scalar_t v;
  };
  static __device__ acc_t identity(const PfReduceParams& p) { return acc_t{pf_extreme(!(p.flags & 2))}; }
  static __device__ acc_t combine(const PfReduceParams& p, acc_t a, acc_t b) {
    if (pf_isnan(a.v)) return a;
    if (pf_isnan(b.v)) return b;
    return ((p.flags & 2) ? b.v < a.v : b.v > a.v) ? b : a;
  }
  static __device__ acc_t fold(const PfReduceParams& p, acc_t a, opmath_t x, long long, long long) {
    return combine(p, a, acc_t{pf_cast<acc_scalar_t>(x)});
  }
  static __device__ void project(const PfReduceParams& p, acc_t a, long long, char* out, long long*) {
    pf_store_dyn(out, p.out_dtype, a.v);
  }
};

// max / min with indices, argmax / argmin: the first index of the extreme;
// NaN counts as the extreme (the first NaN wins). index < 0: no value yet.
struct op_arg {
  struct acc_t {
    acc_scalar_t v;
    long long index;
  };
  static __device__ acc_t identity(const PfReduceParams&) { return acc_t{acc_scalar_t(0), -1}; }
  static __device__ acc_t combine(const PfReduceParams& p, acc_t a, acc_t b) {
    if (a.index < 0) return b;
    if (b.index < 0) return a;
    const bool an = pf_isnan(a.v), bn = pf_isnan(b.v);
    if (an || bn) {
      if (an && bn) return b.index < a.index ? b : a;
      return an ? a : b;
    }
    if (a.v == b.v) return b.index < a.index ? b : a;
    return ((p.flags & 2) ? b.v < a.v : b.v > a.v) ? b : a;
  }
  static __device__ acc_t fold(const PfReduceParams& p, acc_t a, opmath_t x, long long index, long long) {
    return combine(p, a, acc_t{pf_cast<acc_scalar_t>(x), index});
  }
  static __device__ void project(const PfReduceParams& p, acc_t a, long long, char* out, long long* index_out) {
    const long long index = a.index < 0 ? 0 : a.index;
    if (p.flags & 4) {
      pf_store_dyn(out, p.out_dtype, a.v);
      *index_out = index;
    } else {
      *reinterpret_cast<long long*>(out) = index;
    }
  }
};

// any / all (flags bit 3).
struct op_truth {
  struct acc_t {
    int v;
  };
  static __device__ acc_t identity(const PfReduceParams& p) { return acc_t{(p.flags & 8) ? 1 : 0}; }
  static __device__ acc_t combine(const PfReduceParams& p, acc_t a, acc_t b) {
    return acc_t{(p.flags & 8) ? (a.v && b.v) : (a.v || b.v)};
  }
  static __device__ acc_t fold(const PfReduceParams& p, acc_t a, opmath_t x, long long, long long) {
    return combine(p, a, acc_t{x != opmath_t(0) ? 1 : 0});
  }
  static __device__ void project(const PfReduceParams& p, acc_t a, long long, char* out, long long*) {
    pf_store_dyn(out, p.out_dtype, a.v);
  }
};

PF_REDUCE_KERNEL(sum, op_sum)
PF_REDUCE_KERNEL(prod, op_prod)
PF_REDUCE_KERNEL(amax, op_amax)
PF_REDUCE_KERNEL(arg, op_arg)
PF_REDUCE_KERNEL(truth, op_truth)
