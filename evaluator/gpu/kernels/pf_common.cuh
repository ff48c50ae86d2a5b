// Device helpers every baseline kernel program starts with (after pf_abi.cuh
// and the generated preamble that defines PF_DTYPE, the program's dtype tag):
// the scalar types, PyTorch's conversions between them, the opmath type,
// dynamic (tag-driven) loads and stores, aligned vectors, the offset
// calculator and float/double math overloads.
//
// No CUDA headers are included: half and bfloat16 are 16-bit structs with
// their conversions written here (cvt instructions / round-to-nearest-even
// bit arithmetic), so programs compile fast and need nothing from disk.

#ifndef PF_DTYPE
#error "PF_DTYPE (the program's dtype tag) must be defined by the preamble"
#endif

struct pf_half {
  unsigned short x;
};
struct pf_bf16 {
  unsigned short x;
};

template <class A, class B>
struct pf_is_same {
  static constexpr bool value = false;
};
template <class A>
struct pf_is_same<A, A> {
  static constexpr bool value = true;
};

template <int Tag>
struct pf_type_of;
template <> struct pf_type_of<PF_TAG_BOOL> { typedef bool type; };
template <> struct pf_type_of<PF_TAG_UINT8> { typedef unsigned char type; };
template <> struct pf_type_of<PF_TAG_INT8> { typedef signed char type; };
template <> struct pf_type_of<PF_TAG_INT16> { typedef short type; };
template <> struct pf_type_of<PF_TAG_INT32> { typedef int type; };
template <> struct pf_type_of<PF_TAG_INT64> { typedef long long type; };
template <> struct pf_type_of<PF_TAG_FLOAT16> { typedef pf_half type; };
template <> struct pf_type_of<PF_TAG_BFLOAT16> { typedef pf_bf16 type; };
template <> struct pf_type_of<PF_TAG_FLOAT32> { typedef float type; };
template <> struct pf_type_of<PF_TAG_FLOAT64> { typedef double type; };

template <class T>
struct pf_is_float {
  static constexpr bool value = pf_is_same<T, float>::value || pf_is_same<T, double>::value ||
                                pf_is_same<T, pf_half>::value || pf_is_same<T, pf_bf16>::value;
};

// The type PyTorch computes a dtype in: float for the 16-bit floats.
template <class T> struct pf_opmath { typedef T type; };
template <> struct pf_opmath<pf_half> { typedef float type; };
template <> struct pf_opmath<pf_bf16> { typedef float type; };

typedef typename pf_type_of<PF_DTYPE>::type scalar_t;
typedef typename pf_opmath<scalar_t>::type opmath_t;
#define PF_SCALAR_IS_FLOAT (pf_is_float<scalar_t>::value)

// --- 16-bit float conversions -------------------------------------------------

__device__ __forceinline__ float pf_half_to_float(unsigned short h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
}
__device__ __forceinline__ unsigned short pf_float_to_half(float f) {
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
}
__device__ __forceinline__ unsigned short pf_double_to_half(double d) {
  unsigned short h;
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d));
  return h;
}
__device__ __forceinline__ float pf_bf16_to_float(unsigned short b) {
  return __uint_as_float(static_cast<unsigned int>(b) << 16);
}
// Round to nearest even, NaN kept quiet (c10::BFloat16's rounding).
__device__ __forceinline__ unsigned short pf_float_to_bf16(float f) {
  if (f != f) return 0x7FC0;
  unsigned int u = __float_as_uint(f);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<unsigned short>(u >> 16);
}

__device__ __forceinline__ float pf_widen(pf_half h) { return pf_half_to_float(h.x); }
__device__ __forceinline__ float pf_widen(pf_bf16 b) { return pf_bf16_to_float(b.x); }

// pf_cast<T>(v): a value conversion as PyTorch's CUDA kernels do it
// (c10::static_cast_with_inter_type): bool is v != 0, uint8 from a float goes
// through int64, the 16-bit floats round to nearest even.
template <class T, class U>
__device__ __forceinline__ T pf_cast(U v) {
  if constexpr (pf_is_same<U, pf_half>::value || pf_is_same<U, pf_bf16>::value) {
    if constexpr (pf_is_same<T, U>::value) {
      return v;
    } else {
      return pf_cast<T>(pf_widen(v));
    }
  } else if constexpr (pf_is_same<T, U>::value) {
    return v;
  } else if constexpr (pf_is_same<T, bool>::value) {
    return v != U(0);
  } else if constexpr (pf_is_same<T, pf_half>::value) {
    pf_half h;
    if constexpr (pf_is_same<U, double>::value) {
      h.x = pf_double_to_half(v);
    } else {
      h.x = pf_float_to_half(static_cast<float>(v));
    }
    return h;
  } else if constexpr (pf_is_same<T, pf_bf16>::value) {
    pf_bf16 b;
    b.x = pf_float_to_bf16(static_cast<float>(v));
    return b;
  } else if constexpr (pf_is_same<T, unsigned char>::value && pf_is_float<U>::value) {
    return static_cast<unsigned char>(static_cast<long long>(v));
  } else {
    return static_cast<T>(v);
  }
}

// --- loads and stores -------------------------------------------------------------

// Bool is read as a byte compared with zero, so any non-zero byte is true.
template <class T>
__device__ __forceinline__ T pf_load(const char* p) {
  return *reinterpret_cast<const T*>(p);
}
template <>
__device__ __forceinline__ bool pf_load<bool>(const char* p) {
  return *reinterpret_cast<const unsigned char*>(p) != 0;
}

// Loads an element of dtype `tag` and converts it to T.
template <class T>
__device__ __forceinline__ T pf_load_dyn(const char* p, int tag) {
  switch (tag) {
    case PF_TAG_BOOL: return pf_cast<T>(pf_load<bool>(p));
    case PF_TAG_UINT8: return pf_cast<T>(pf_load<unsigned char>(p));
    case PF_TAG_INT8: return pf_cast<T>(pf_load<signed char>(p));
    case PF_TAG_INT16: return pf_cast<T>(pf_load<short>(p));
    case PF_TAG_INT32: return pf_cast<T>(pf_load<int>(p));
    case PF_TAG_INT64: return pf_cast<T>(pf_load<long long>(p));
    case PF_TAG_FLOAT16: return pf_cast<T>(pf_load<pf_half>(p));
    case PF_TAG_BFLOAT16: return pf_cast<T>(pf_load<pf_bf16>(p));
    case PF_TAG_FLOAT32: return pf_cast<T>(pf_load<float>(p));
    default: return pf_cast<T>(pf_load<double>(p));
  }
}

// Converts v to dtype `tag` and stores it.
template <class T>
__device__ __forceinline__ void pf_store_dyn(char* p, int tag, T v) {
  switch (tag) {
    case PF_TAG_BOOL: *reinterpret_cast<bool*>(p) = pf_cast<bool>(v); break;
    case PF_TAG_UINT8: *reinterpret_cast<unsigned char*>(p) = pf_cast<unsigned char>(v); break;
    case PF_TAG_INT8: *reinterpret_cast<signed char*>(p) = pf_cast<signed char>(v); break;
    case PF_TAG_INT16: *reinterpret_cast<short*>(p) = pf_cast<short>(v); break;
    case PF_TAG_INT32: *reinterpret_cast<int*>(p) = pf_cast<int>(v); break;
    case PF_TAG_INT64: *reinterpret_cast<long long*>(p) = pf_cast<long long>(v); break;
    case PF_TAG_FLOAT16: *reinterpret_cast<pf_half*>(p) = pf_cast<pf_half>(v); break;
    case PF_TAG_BFLOAT16: *reinterpret_cast<pf_bf16*>(p) = pf_cast<pf_bf16>(v); break;
    case PF_TAG_FLOAT32: *reinterpret_cast<float*>(p) = pf_cast<float>(v); break;
    default: *reinterpret_cast<double*>(p) = pf_cast<double>(v); break;
  }
}

// N elements of T loaded or stored with one instruction (N * sizeof(T) <= 16,
// the address aligned to it: the host checks alignment before choosing the
// vectorised kernels).
template <class T, int N>
struct alignas(sizeof(T) * N) pf_vec {
  T v[N];
};

// Elements per 16-byte access for the program's dtype (8 at most).
#define PF_VEC (sizeof(scalar_t) >= 2 ? 16 / (int)sizeof(scalar_t) : 8)

// --- offsets ----------------------------------------------------------------------------

__device__ __forceinline__ unsigned int pf_div(const PfDivider& d, unsigned int n) {
  unsigned int t = __umulhi(n, d.magic);
  return (t + n) >> d.shift;
}

// Byte offsets of element `linear` for the first NOPS operands.
template <int NOPS>
__device__ __forceinline__ void pf_offsets(const PfOffsetCalc& oc, unsigned int linear,
                                           unsigned int (&off)[NOPS]) {
#pragma unroll
  for (int k = 0; k < NOPS; ++k) off[k] = 0;
#pragma unroll
  for (int d = 0; d < PF_MAX_DIMS; ++d) {
    if (d == oc.dims) break;
    unsigned int q = pf_div(oc.sizes[d], linear);
    unsigned int r = linear - q * oc.sizes[d].divisor;
    linear = q;
#pragma unroll
    for (int k = 0; k < NOPS; ++k) off[k] += r * oc.strides[d][k];
  }
}

// --- math in opmath -------------------------------------------------------------------

#define PF_MATH1(name, ffn, dfn)                                             \
  __device__ __forceinline__ float pf_##name(float x) { return ffn(x); }     \
  __device__ __forceinline__ double pf_##name(double x) { return dfn(x); }
PF_MATH1(exp, expf, exp)
PF_MATH1(exp2, exp2f, exp2)
PF_MATH1(expm1, expm1f, expm1)
PF_MATH1(log, logf, log)
PF_MATH1(log2, log2f, log2)
PF_MATH1(log10, log10f, log10)
PF_MATH1(log1p, log1pf, log1p)
PF_MATH1(sqrt, sqrtf, sqrt)
PF_MATH1(rsqrt, rsqrtf, rsqrt)
PF_MATH1(sin, sinf, sin)
PF_MATH1(cos, cosf, cos)
PF_MATH1(tan, tanf, tan)
PF_MATH1(asin, asinf, asin)
PF_MATH1(acos, acosf, acos)
PF_MATH1(atan, atanf, atan)
PF_MATH1(sinh, sinhf, sinh)
PF_MATH1(cosh, coshf, cosh)
PF_MATH1(tanh, tanhf, tanh)
PF_MATH1(erf, erff, erf)
PF_MATH1(erfc, erfcf, erfc)
PF_MATH1(ceil, ceilf, ceil)
PF_MATH1(floor, floorf, floor)
PF_MATH1(trunc, truncf, trunc)
PF_MATH1(nearbyint, nearbyintf, nearbyint)
PF_MATH1(fabs, fabsf, fabs)
#undef PF_MATH1
__device__ __forceinline__ float pf_pow(float x, float y) { return powf(x, y); }
__device__ __forceinline__ double pf_pow(double x, double y) { return pow(x, y); }
__device__ __forceinline__ float pf_fmod(float x, float y) { return fmodf(x, y); }
__device__ __forceinline__ float pf_copysign(float x, float y) { return copysignf(x, y); }
__device__ __forceinline__ double pf_copysign(double x, double y) { return copysign(x, y); }
__device__ __forceinline__ double pf_fmod(double x, double y) { return fmod(x, y); }

template <class T>
__device__ __forceinline__ bool pf_isnan(T x) {
  if constexpr (pf_is_float<T>::value) {
    return x != x;
  } else {
    return false;
  }
}

template <class T>
__device__ __forceinline__ T pf_infinity() {
  if constexpr (pf_is_same<T, double>::value) {
    return __longlong_as_double(0x7FF0000000000000LL);
  } else {
    return __int_as_float(0x7F800000);
  }
}
template <class T>
__device__ __forceinline__ T pf_nan() {
  if constexpr (pf_is_same<T, double>::value) {
    return __longlong_as_double(0x7FF8000000000000LL);
  } else {
    return __int_as_float(0x7FC00000);
  }
}

// The largest / lowest finite value of the program dtype in opmath (nan_to_num).
__device__ __forceinline__ double pf_dtype_max() {
  if constexpr (pf_is_same<scalar_t, pf_half>::value) {
    return 65504.0;
  } else if constexpr (pf_is_same<scalar_t, pf_bf16>::value) {
    return 3.3895313892515355e38;
  } else if constexpr (pf_is_same<scalar_t, float>::value) {
    return 3.4028234663852886e38;
  } else {
    return 1.7976931348623157e308;
  }
}

// Warp-level reductions over 32 lanes.
template <class T, class F>
__device__ __forceinline__ T pf_warp_reduce(T v, F f) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = f(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
