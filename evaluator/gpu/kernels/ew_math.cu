// pf-dtypes: float16 bfloat16 float32 float64
// pf-requires: elementwise.cuh
// Floating math and activations, computed in opmath (float for the 16-bit
// types) with the formulas of PyTorch's CUDA kernels. Integer inputs of the
// float-promoting ops arrive converted by the strided kernel's loads.

template <class T>
__device__ __forceinline__ T pf_fmax_std(T a, T b) { return (a < b) ? b : a; }
template <class T>
__device__ __forceinline__ T pf_fmin_std(T a, T b) { return (b < a) ? b : a; }

#define PF_UNARY_MATH(NAME, EXPR)                                                \
  struct op_##NAME {                                                             \
    typedef scalar_t out_t;                                                      \
    enum { nin = 1, bool_args = 0 };                                             \
    static __device__ opmath_t apply(const PfElementwiseParams& p, const opmath_t* v) { \
      (void)p;                                                                   \
      const opmath_t x = v[0];                                                   \
      return EXPR;                                                               \
    }                                                                            \
  };                                                                             \
  PF_ELEMENTWISE(NAME, op_##NAME)

#define PF_ONE opmath_t(1)
#define PF_PARAM(i) static_cast<opmath_t>(p.s[i])

PF_UNARY_MATH(exp, pf_exp(x))
PF_UNARY_MATH(exp2, pf_exp2(x))
PF_UNARY_MATH(expm1, pf_expm1(x))
PF_UNARY_MATH(log, pf_log(x))
PF_UNARY_MATH(log2, pf_log2(x))
PF_UNARY_MATH(log10, pf_log10(x))
PF_UNARY_MATH(log1p, pf_log1p(x))
PF_UNARY_MATH(sqrt, pf_sqrt(x))
PF_UNARY_MATH(rsqrt, pf_rsqrt(x))
PF_UNARY_MATH(sin, pf_sin(x))
PF_UNARY_MATH(cos, pf_cos(x))
PF_UNARY_MATH(tan, pf_tan(x))
PF_UNARY_MATH(asin, pf_asin(x))
PF_UNARY_MATH(acos, pf_acos(x))
PF_UNARY_MATH(atan, pf_atan(x))
PF_UNARY_MATH(sinh, pf_sinh(x))
PF_UNARY_MATH(cosh, pf_cosh(x))
PF_UNARY_MATH(tanh, pf_tanh(x))
PF_UNARY_MATH(erf, pf_erf(x))
PF_UNARY_MATH(erfc, pf_erfc(x))
// Two-operand float math (integer operands arrive converted), PyTorch's
// formulas in opmath.
__device__ __forceinline__ float pf_atan2(float a, float b) { return atan2f(a, b); }
__device__ __forceinline__ double pf_atan2(double a, double b) { return atan2(a, b); }
__device__ __forceinline__ float pf_hypot(float a, float b) { return hypotf(a, b); }
__device__ __forceinline__ double pf_hypot(double a, double b) { return hypot(a, b); }

#define PF_BINARY_MATH(NAME, EXPR)                                               \
  struct op_##NAME {                                                             \
    typedef scalar_t out_t;                                                      \
    enum { nin = 2, bool_args = 0 };                                             \
    static __device__ opmath_t apply(const PfElementwiseParams& p, const opmath_t* v) { \
      (void)p;                                                                   \
      const opmath_t a = v[0], b = v[1];                                         \
      return EXPR;                                                               \
    }                                                                            \
  };                                                                             \
  PF_ELEMENTWISE(NAME, op_##NAME)

PF_BINARY_MATH(atan2, pf_atan2(a, b))
PF_BINARY_MATH(hypot, pf_hypot(a, b))
PF_BINARY_MATH(copysign, pf_copysign(a, b))
// logaddexp: a equal infinity stays itself (inf - inf would be NaN).
PF_BINARY_MATH(logaddexp, (pf_fabs(a) == pf_infinity<opmath_t>() && a == b)
                              ? a
                              : pf_fmax_std(a, b) + pf_log1p(pf_exp(-pf_fabs(a - b))))
// xlogy: NaN y gives NaN, x == 0 gives 0, else x * log(y).
PF_BINARY_MATH(xlogy, pf_isnan(b) ? b : (a == opmath_t(0) ? opmath_t(0) : a * pf_log(b)))

// logit: x clamped to [p0, 1 - p0] when si[0] (eps given, >= 0), in opmath
// as PyTorch's kernel; NaN passes the clamp.
struct op_logit {
  typedef scalar_t out_t;
  enum { nin = 1, bool_args = 0 };
  static __device__ opmath_t apply(const PfElementwiseParams& p, const opmath_t* v) {
    opmath_t x = v[0];
    if (p.si[0]) {
      const opmath_t lo = PF_PARAM(0), hi = PF_ONE - lo;
      x = x < lo ? lo : (x > hi ? hi : x);
    }
    return pf_log(x / (PF_ONE - x));
  }
};
PF_ELEMENTWISE(logit, op_logit)

// lerp(input, end, weight), PyTorch's two-sided formula in opmath.
struct op_lerp {
  typedef scalar_t out_t;
  enum { nin = 3, bool_args = 0 };
  static __device__ opmath_t apply(const PfElementwiseParams& p, const opmath_t* v) {
    (void)p;
    const opmath_t s = v[0], e = v[1], w = v[2], d = e - s;
    return pf_fabs(w) < opmath_t(0.5) ? s + w * d : e - d * (PF_ONE - w);
  }
};
PF_ELEMENTWISE(lerp, op_lerp)

// As PyTorch's CUDA kernels: the constant in opmath, sinc(0) = 1.
PF_UNARY_MATH(deg2rad, x * opmath_t(0.017453292519943295))
PF_UNARY_MATH(rad2deg, x * opmath_t(57.295779513082323))
PF_UNARY_MATH(sinc, x == opmath_t(0) ? PF_ONE
                                     : pf_sin(opmath_t(3.14159265358979323846) * x) /
                                           (opmath_t(3.14159265358979323846) * x))
PF_UNARY_MATH(tanhshrink, x - pf_tanh(x))
PF_UNARY_MATH(frac, x - pf_trunc(x))
PF_UNARY_MATH(reciprocal, PF_ONE / x)
PF_UNARY_MATH(sigmoid, PF_ONE / (PF_ONE + pf_exp(-x)))
PF_UNARY_MATH(gelu, opmath_t(0.5) * x * (PF_ONE + pf_erf(x * opmath_t(0.70710678118654752440))))
PF_UNARY_MATH(gelu_tanh,
              opmath_t(0.5) * x *
                  (PF_ONE + pf_tanh(opmath_t(0.79788456080286535588) *
                                    (x + opmath_t(0.044715) * x * x * x))))
PF_UNARY_MATH(silu, x / (PF_ONE + pf_exp(-x)))
PF_UNARY_MATH(hardswish, x * pf_fmin_std(pf_fmax_std(x + opmath_t(3), opmath_t(0)), opmath_t(6)) / opmath_t(6))
PF_UNARY_MATH(hardsigmoid, pf_fmin_std(pf_fmax_std(x + opmath_t(3), opmath_t(0)), opmath_t(6)) / opmath_t(6))
PF_UNARY_MATH(leaky_relu, x > opmath_t(0) ? x : x * PF_PARAM(0))
PF_UNARY_MATH(elu, (x > opmath_t(0) || pf_isnan(x)) ? x : PF_PARAM(0) * pf_expm1(x))
PF_UNARY_MATH(selu, opmath_t(1.0507009873554804934193349852946) *
                        ((x > opmath_t(0) || pf_isnan(x))
                             ? x
                             : opmath_t(1.6732632423543772848170429916717) * pf_expm1(x)))
PF_UNARY_MATH(celu, (x > opmath_t(0) || pf_isnan(x)) ? x : PF_PARAM(0) * pf_expm1(x / PF_PARAM(0)))
PF_UNARY_MATH(softplus, x * PF_PARAM(0) > PF_PARAM(1) ? x : pf_log1p(pf_exp(x * PF_PARAM(0))) / PF_PARAM(0))
PF_UNARY_MATH(mish, x * pf_tanh(pf_log1p(pf_exp(x))))
PF_UNARY_MATH(logsigmoid, pf_fmin_std(x, opmath_t(0)) - pf_log1p(pf_exp(-pf_fabs(x))))
PF_UNARY_MATH(softsign, x / (PF_ONE + pf_fabs(x)))
PF_UNARY_MATH(threshold, x <= PF_PARAM(0) ? PF_PARAM(1) : x)

// glu: v0 (first half) * sigmoid(v1) (second half, a view offset along dim).
struct op_glu {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  static __device__ opmath_t apply(const PfElementwiseParams&, const opmath_t* v) {
    return v[0] * (PF_ONE / (PF_ONE + pf_exp(-v[1])));
  }
};
PF_ELEMENTWISE(glu, op_glu)

// prelu: v1 is the slope, broadcast along the channel dim.
struct op_prelu {
  typedef scalar_t out_t;
  enum { nin = 2, bool_args = 0 };
  static __device__ opmath_t apply(const PfElementwiseParams&, const opmath_t* v) {
    return v[0] >= opmath_t(0) ? v[0] : v[1] * v[0];
  }
};
PF_ELEMENTWISE(prelu, op_prelu)
