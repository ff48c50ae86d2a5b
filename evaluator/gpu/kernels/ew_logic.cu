// pf-dtypes: bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64
// pf-requires: elementwise.cuh
// Comparisons, logical and bitwise ops and floating predicates. The program
// dtype is the dtype compared in (the operands' common dtype); predicates
// write bool, bitwise ops the program dtype.

#define PF_IS_INT (!pf_is_float<T>::value)

// eq/ne/lt/le/gt/ge: si[0] selects the comparison.
struct op_compare {
  typedef bool out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ bool apply(const PfElementwiseParams& p, const T* v) {
    switch (p.si[0]) {
      case 0: return v[0] == v[1];
      case 1: return v[0] != v[1];
      case 2: return v[0] < v[1];
      case 3: return v[0] <= v[1];
      case 4: return v[0] > v[1];
      default: return v[0] >= v[1];
    }
  }
};

// logical_and/or/xor (si[0] = 0/1/2) of the operands' truth values.
struct op_logical {
  typedef bool out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ bool apply(const PfElementwiseParams& p, const T* v) {
    const bool a = v[0] != T(0), b = v[1] != T(0);
    switch (p.si[0]) {
      case 0: return a && b;
      case 1: return a || b;
      default: return a != b;
    }
  }
};

struct op_logical_not {
  typedef bool out_t;
  enum { nin = 1, bool_args = 0 };
  template <class T>
  static __device__ bool apply(const PfElementwiseParams&, const T* v) {
    return v[0] == T(0);
  }
};

// isnan/isinf/isfinite/isposinf/isneginf (si[0] = 0..4).
struct op_predicate {
  typedef bool out_t;
  enum { nin = 1, bool_args = 0 };
  template <class T>
  static __device__ bool apply(const PfElementwiseParams& p, const T* v) {
    if constexpr (PF_IS_INT) {
      return p.si[0] == 2;
    } else {
      const T x = v[0];
      const T inf = pf_infinity<T>();
      switch (p.si[0]) {
        case 0: return x != x;
        case 1: return x == inf || x == -inf;
        case 2: return x == x && x != inf && x != -inf;
        case 3: return x == inf;
        default: return x == -inf;
      }
    }
  }
};

// bitwise_and/or/xor (si[0] = 0/1/2) of integer or bool operands.
struct op_bitwise {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    if constexpr (PF_IS_INT) {
      const long long a = pf_cast<long long>(v[0]), b = pf_cast<long long>(v[1]);
      switch (p.si[0]) {
        case 0: return pf_cast<T>(a & b);
        case 1: return pf_cast<T>(a | b);
        default: return pf_cast<T>(a ^ b);
      }
    } else {
      return v[0];
    }
  }
};

// x << n (si[0] = 0) and x >> n (si[0] = 1) of integers: out of [0, bits)
// a left shift gives 0, a right shift the sign (PyTorch 2's rule).
struct op_shift {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams& p, const T* v) {
    if constexpr (PF_IS_INT && !pf_is_same<T, bool>::value) {
      const long long a = pf_cast<long long>(v[0]), n = pf_cast<long long>(v[1]);
      const long long bits = static_cast<long long>(sizeof(T)) * 8;
      if (n < 0 || n >= bits) return pf_cast<T>(p.si[0] == 0 ? 0LL : (a < 0 ? -1LL : 0LL));
      if (p.si[0] == 0) {
        return pf_cast<T>(static_cast<long long>(static_cast<unsigned long long>(a) << n));
      }
      return pf_cast<T>(a >> n);
    } else {
      return v[0];
    }
  }
};

struct op_bitwise_not {
  typedef scalar_t out_t;
  enum { nin = 1, bool_args = 0 };
  template <class T>
  static __device__ T apply(const PfElementwiseParams&, const T* v) {
    if constexpr (pf_is_same<T, bool>::value) {
      return !v[0];
    } else if constexpr (PF_IS_INT) {
      return pf_cast<T>(~pf_cast<long long>(v[0]));
    } else {
      return v[0];
    }
  }
};

PF_ELEMENTWISE(compare, op_compare)
PF_ELEMENTWISE(logical, op_logical)
PF_ELEMENTWISE(logical_not, op_logical_not)
PF_ELEMENTWISE(predicate, op_predicate)
PF_ELEMENTWISE(bitwise, op_bitwise)
PF_ELEMENTWISE(bitwise_not, op_bitwise_not)
PF_ELEMENTWISE(shift, op_shift)
