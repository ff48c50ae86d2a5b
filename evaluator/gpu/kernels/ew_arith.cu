// pf-dtypes: bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64
// pf-requires: elementwise.cuh
// Arithmetic, rounding, clamping and selection (ops_elementwise.cpp binds
// them): formulas follow PyTorch's CUDA kernels; integers compute in 64 bits
// and wrap on the store as PyTorch's integer arithmetic does.

#define PF_IS_INT (!pf_is_float<T>::value)

template <class T>
__device__ __forceinline__ long long pf_i64(T v) {
  return pf_cast<long long>(v);
}
__device__ __forceinline__ long long pf_wadd(long long a, long long b) {
  return static_cast<long long>(static_cast<unsigned long long>(a) + static_cast<unsigned long long>(b));
}
__device__ __forceinline__ long long pf_wmul(long long a, long long b) {
  return static_cast<long long>(static_cast<unsigned long long>(a) * static_cast<unsigned long long>(b));
}
// std::max / std::min semantics: a NaN first argument wins in max, etc.
template <class T>
__device__ __forceinline__ T pf_max(T a, T b) { return (a < b) ? b : a; }
template <class T>
__device__ __forceinline__ T pf_min(T a, T b) { return (b < a) ? b : a; }

// add/sub/rsub: v0 + alpha * v1 (sub passes -alpha; rsub swaps operands on the host).
struct op_add {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    if constexpr (PF_IS_INT) {
      return pf_cast<T>(pf_wadd(pf_i64(v[0]), pf_wmul(p.si[0], pf_i64(v[1]))));
    } else {
      return v[0] + pf_param<T>(p, 0) * v[1];
    }
  }
};

struct op_mul {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (PF_IS_INT) {
      return pf_cast<T>(pf_wmul(pf_i64(v[0]), pf_i64(v[1])));
    } else {
      return v[0] * v[1];
    }
  }
};

// True division (floating compute only; integers promote on the host).
struct op_div {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (PF_IS_INT) {
      return v[0];
    } else {
      return v[0] / v[1];
    }
  }
};

struct op_div_trunc {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (PF_IS_INT) {
      long long a = pf_i64(v[0]), b = pf_i64(v[1]);
      if (b == 0) return pf_cast<T>(0);
      if (b == -1) return pf_cast<T>(pf_wmul(a, -1));
      return pf_cast<T>(a / b);
    } else {
      return pf_trunc(v[0] / v[1]);
    }
  }
};

// Python floor division (PyTorch's div_floor_floating / div_floor_integer).
struct op_div_floor {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (PF_IS_INT) {
      long long a = pf_i64(v[0]), b = pf_i64(v[1]);
      if (b == 0) return pf_cast<T>(0);
      if (b == -1) return pf_cast<T>(pf_wmul(a, -1));
      long long q = a / b;
      if (a % b != 0 && ((a < 0) != (b < 0))) --q;
      return pf_cast<T>(q);
    } else {
      T a = v[0], b = v[1];
      if (b == 0) return a / b;
      T mod = pf_fmod(a, b);
      T div = (a - mod) / b;
      if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
      if (div == 0) return pf_copysign(T(0), a / b);
      T floordiv = pf_floor(div);
      if (div - floordiv > T(0.5)) floordiv += 1;
      return floordiv;
    }
  }
};

// Python modulo: the result has the divisor's sign.
struct op_remainder {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (PF_IS_INT) {
      long long a = pf_i64(v[0]), b = pf_i64(v[1]);
      if (b == 0 || b == -1) return pf_cast<T>(0);
      long long mod = a % b;
      if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
      return pf_cast<T>(mod);
    } else {
      T mod = pf_fmod(v[0], v[1]);
      if (mod != 0 && ((v[1] < 0) != (mod < 0))) mod += v[1];
      return mod;
    }
  }
};

struct op_fmod {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (PF_IS_INT) {
      long long a = pf_i64(v[0]), b = pf_i64(v[1]);
      if (b == 0 || b == -1) return pf_cast<T>(0);
      return pf_cast<T>(a % b);
    } else {
      return pf_fmod(v[0], v[1]);
    }
  }
};

struct op_pow {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (PF_IS_INT) {
      long long base = pf_i64(v[0]), e = pf_i64(v[1]);
      if (e < 0) {
        if (base == 1) return pf_cast<T>(1);
        if (base == -1) return pf_cast<T>(((-e) & 1) ? -1 : 1);
        return pf_cast<T>(0);
      }
      long long result = 1;
      while (e) {
        if (e & 1) result = pf_wmul(result, base);
        e >>= 1;
        base = pf_wmul(base, base);
      }
      return pf_cast<T>(result);
    } else {
      return pf_pow(v[0], v[1]);
    }
  }
};

// maximum/minimum propagate NaN; fmax/fmin ignore it (s[0] = 1: take the max).
struct op_maximum {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    if (pf_isnan(v[0])) return v[0];
    if (pf_isnan(v[1])) return v[1];
    if (p.si[0]) return v[0] < v[1] ? v[1] : v[0];
    return v[1] < v[0] ? v[1] : v[0];
  }
};
struct op_fmax {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    if (pf_isnan(v[0])) return v[1];
    if (pf_isnan(v[1])) return v[0];
    if (p.si[0]) return v[0] < v[1] ? v[1] : v[0];
    return v[1] < v[0] ? v[1] : v[0];
  }
};

struct op_neg {
  typedef scalar_t out_t;
  enum { nin = 1, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (PF_IS_INT) {
      return pf_cast<T>(pf_wmul(pf_i64(v[0]), -1));
    } else {
      return -v[0];
    }
  }
};

struct op_abs {
  typedef scalar_t out_t;
  enum { nin = 1, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (PF_IS_INT) {
      long long a = pf_i64(v[0]);
      return pf_cast<T>(a < 0 ? pf_wmul(a, -1) : a);
    } else {
      return pf_fabs(v[0]);
    }
  }
};

struct op_square {
  typedef scalar_t out_t;
  enum { nin = 1, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (PF_IS_INT) {
      return pf_cast<T>(pf_wmul(pf_i64(v[0]), pf_i64(v[0])));
    } else {
      return v[0] * v[0];
    }
  }
};

struct op_sign {
  typedef scalar_t out_t;
  enum { nin = 1, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (PF_IS_INT) {
      long long a = pf_i64(v[0]);
      return pf_cast<T>((0 < a) - (a < 0));
    } else {
      if (pf_isnan(v[0])) return T(0);
      return static_cast<T>((T(0) < v[0]) - (v[0] < T(0)));
    }
  }
};

// relu / relu6 / hardtanh: clamp to [s0, s1] (si0, si1 for integers), NaN kept.
struct op_hardtanh {
  typedef scalar_t out_t;
  enum { nin = 1, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    if constexpr (PF_IS_INT) {
      long long a = pf_i64(v[0]);
      if (p.si[2] & 1) a = a < p.si[0] ? p.si[0] : a;
      if (p.si[2] & 2) a = a > p.si[1] ? p.si[1] : a;
      return pf_cast<T>(a);
    } else {
      if (pf_isnan(v[0])) return v[0];
      T a = v[0];
      if (p.si[2] & 1) a = pf_max(a, static_cast<T>(p.s[0]));
      if (p.si[2] & 2) a = pf_min(a, static_cast<T>(p.s[1]));
      return a;
    }
  }
};

// ceil/floor/trunc/round(decimals=0): integers pass through. si[0] picks the mode.
struct op_rounding {
  typedef scalar_t out_t;
  enum { nin = 1, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    if constexpr (PF_IS_INT) {
      return v[0];
    } else {
      switch (p.si[0]) {
        case 0: return pf_ceil(v[0]);
        case 1: return pf_floor(v[0]);
        case 2: return pf_trunc(v[0]);
        default: return pf_nearbyint(v[0]);
      }
    }
  }
};

// round(decimals != 0): s0 = 10^|decimals| (rounded to opmath), si0 = decimals < 0.
struct op_round_decimals {
  typedef scalar_t out_t;
  enum { nin = 1, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    if constexpr (PF_IS_INT) {
      return v[0];
    } else {
      T ten_pow = static_cast<T>(p.s[0]);
      return p.si[0] ? pf_nearbyint(v[0] / ten_pow) * ten_pow : pf_nearbyint(v[0] * ten_pow) / ten_pow;
    }
  }
};

// nan_to_num: s0 for NaN, s1 for +inf, s2 for -inf.
struct op_nan_to_num {
  typedef scalar_t out_t;
  enum { nin = 1, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    if constexpr (PF_IS_INT) {
      return v[0];
    } else {
      if (pf_isnan(v[0])) return static_cast<T>(p.s[0]);
      if (v[0] == pf_infinity<T>()) return static_cast<T>(p.s[1]);
      if (v[0] == -pf_infinity<T>()) return static_cast<T>(p.s[2]);
      return v[0];
    }
  }
};

// clamp with tensor or number bounds as operands: v1 = min, v2 = max;
// si[0] bit 1: min present, bit 2: max present. A NaN anywhere gives NaN.
struct op_clamp {
  typedef scalar_t out_t;
  enum { nin = 3, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    const bool has_lo = p.si[0] & 1, has_hi = p.si[0] & 2;
    if constexpr (PF_IS_INT) {
      long long a = pf_i64(v[0]);
      if (has_lo) a = pf_max(a, pf_i64(v[1]));
      if (has_hi) a = pf_min(a, pf_i64(v[2]));
      return pf_cast<T>(a);
    } else {
      if (pf_isnan(v[0]) || (has_lo && pf_isnan(v[1])) || (has_hi && pf_isnan(v[2]))) {
        return pf_nan<T>();
      }
      T a = v[0];
      if (has_lo) a = pf_max(a, v[1]);
      if (has_hi) a = pf_min(a, v[2]);
      return a;
    }
  }
};

// addcmul(input, t1, t2, value = p0) and addcdiv (floating only), in opmath as
// PyTorch's CUDA kernels: input + value * t1 * t2.
struct op_addcmul {
  typedef scalar_t out_t;
  enum { nin = 3, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    if constexpr (PF_IS_INT) {
      long long product = pf_wmul(pf_i64(v[1]), pf_i64(v[2]));
      return pf_cast<T>(pf_wadd(pf_i64(v[0]), pf_wmul(p.si[0], product)));
    } else {
      return v[0] + pf_param<T>(p, 0) * v[1] * v[2];
    }
  }
};

struct op_addcdiv {
  typedef scalar_t out_t;
  enum { nin = 3, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    if constexpr (PF_IS_INT) {
      return v[0];
    } else {
      return v[0] + pf_param<T>(p, 0) * v[1] / v[2];
    }
  }
};

// heaviside(input, values): values where input == 0, else input > 0.
struct op_heaviside {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    return v[0] == T(0) ? v[1] : (v[0] > T(0) ? T(1) : T(0));
  }
};

// where(condition, input, other).
struct op_where {
  typedef scalar_t out_t;
  enum { nin = 3, bool_args = 1 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    return v[0] != T(0) ? v[1] : v[2];
  }
};

// masked_fill(input, mask, value).
struct op_masked_fill {
  typedef scalar_t out_t;
  enum { nin = 3, bool_args = 2 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    return v[1] != T(0) ? v[2] : v[0];
  }
};

PF_ELEMENTWISE(add, op_add)
PF_ELEMENTWISE(mul, op_mul)
PF_ELEMENTWISE(heaviside, op_heaviside)
PF_ELEMENTWISE(div, op_div)
PF_ELEMENTWISE(div_trunc, op_div_trunc)
PF_ELEMENTWISE(div_floor, op_div_floor)
PF_ELEMENTWISE(remainder, op_remainder)
PF_ELEMENTWISE(fmod, op_fmod)
PF_ELEMENTWISE(pow, op_pow)
PF_ELEMENTWISE(maximum, op_maximum)
PF_ELEMENTWISE(fmax, op_fmax)
PF_ELEMENTWISE(neg, op_neg)
PF_ELEMENTWISE(abs, op_abs)
PF_ELEMENTWISE(square, op_square)
PF_ELEMENTWISE(sign, op_sign)
PF_ELEMENTWISE(hardtanh, op_hardtanh)
PF_ELEMENTWISE(rounding, op_rounding)
PF_ELEMENTWISE(round_decimals, op_round_decimals)
PF_ELEMENTWISE(nan_to_num, op_nan_to_num)
PF_ELEMENTWISE(clamp, op_clamp)
PF_ELEMENTWISE(addcmul, op_addcmul)
PF_ELEMENTWISE(addcdiv, op_addcdiv)
PF_ELEMENTWISE(where, op_where)
PF_ELEMENTWISE(masked_fill, op_masked_fill)
