// The per-element math of input synthesis (docs/tasks.md "Input synthesis"),
// one definition compiled three ways: by the host compiler for the CPU twin
// (evaluator/tasks/synthesis.cpp), and prepended to the kernel program
// evaluator/gpu/kernels/synth.cu, which nvcc builds into the prebuilt fat
// binaries and NVRTC compiles as fallback. CPU and GPU must draw bit-identical
// inputs, so:
//   - every element is a pure function of (stream key, element index): a
//     counter-based SplitMix64 (the k-th output of SplitMix64 seeded with the
//     key, computed directly), so any thread can draw any element;
//   - only IEEE-754 double operations that both sides round correctly are
//     used (+, -, *, /, sqrt, integer <-> double conversions) and none is
//     fused: on the device through the __d*_rn intrinsics, which the compiler
//     never contracts into an FMA whatever -fmad says; on the host through
//     plain operators in files built with -ffp-contract=off (and x86-64
//     without -mfma has no FMA to contract into);
//   - ln, sin and cos are the polynomials below, not libm's or CUDA's (which
//     differ in the last bits); the angle reduction is exact integer
//     arithmetic on the uniform's bits.
// No includes at all (the kernel source filter allows none, whatever #if
// guards them): the host side uses GCC/Clang builtins, fixed-size integer
// types are spelled as the built-in ones (same sizes on x86-64 Linux and in CUDA).
#pragma once

#if defined(__CUDACC__)
#define PF_SYNTH_FN __device__ __forceinline__
#else
#define PF_SYNTH_FN inline
#endif

// Value rules of a stream (PfSynthStream::kind).
#define PF_SYNTH_NORMAL 0    // clamp(normal * scale + mean, lo, hi)
#define PF_SYNTH_CONSTANT 1  // mean everywhere (std_zero_rule = "graphnet", std 0)
#define PF_SYNTH_BOOL 2      // normal > 0.5 (GraphNet's randn > 0.5)
#define PF_SYNTH_INT 3       // int_lo + bits % int_span (int_span 0: all 2^64 values)

// One input tensor's draw, decided on the host from the metadata and the
// synthesis options (evaluator/tasks/synthesis.h synthesis_stream); the
// device gets it verbatim inside PfSynthParams.
struct PfSynthStream {
  unsigned long long key;  // the stream: sha256("<seed>/<set>/<variant>/<index>")[0:16]
  int kind;                // PF_SYNTH_*
  int pad_;
  double mean;
  double scale;  // 0.2 * std
  double lo;
  double hi;
  long long int_lo;
  unsigned long long int_span;
};

// The parameter of the kernel pf_synth_fill (kernels/synth.cu): elements
// [0, n) of `stream` stored as dtype tag `dtype` (PF_TAG_*, pf_abi.cuh) at `out`.
struct PfSynthParams {
  unsigned long long out;
  long long n;
  int dtype;
  int pad_;
  PfSynthStream stream;
};

// --- IEEE operations, never fused ----------------------------------------------

PF_SYNTH_FN double pf_synth_add(double a, double b) {
#if defined(__CUDACC__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
PF_SYNTH_FN double pf_synth_sub(double a, double b) {
#if defined(__CUDACC__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
PF_SYNTH_FN double pf_synth_mul(double a, double b) {
#if defined(__CUDACC__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
PF_SYNTH_FN double pf_synth_div(double a, double b) {
#if defined(__CUDACC__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
PF_SYNTH_FN double pf_synth_sqrt(double a) {
#if defined(__CUDACC__)
  return __dsqrt_rn(a);
#else
  return __builtin_sqrt(a);
#endif
}
PF_SYNTH_FN unsigned long long pf_synth_bits_of(double v) {
#if defined(__CUDACC__)
  return static_cast<unsigned long long>(__double_as_longlong(v));
#else
  unsigned long long u;
  __builtin_memcpy(&u, &v, sizeof u);
  return u;
#endif
}
PF_SYNTH_FN double pf_synth_double_of(unsigned long long u) {
#if defined(__CUDACC__)
  return __longlong_as_double(static_cast<long long>(u));
#else
  double v;
  __builtin_memcpy(&v, &u, sizeof v);
  return v;
#endif
}

// --- the counter-based generator -------------------------------------------------

// Output `counter` (0-based) of SplitMix64 seeded with `key`.
PF_SYNTH_FN unsigned long long pf_synth_u64(unsigned long long key, unsigned long long counter) {
  unsigned long long z = key + (counter + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// ln(u) for a normal double u in (0, 1]: u = m * 2^e with m in [sqrt(1/2),
// sqrt(2)), ln(m) = 2 atanh(s) with s = (m - 1) / (m + 1), |s| < 0.172, by its
// series to s^23 (the next term is below 2^-60 relative).
PF_SYNTH_FN double pf_synth_log(double u) {
  const unsigned long long b = pf_synth_bits_of(u);
  int e = static_cast<int>((b >> 52) & 0x7ff) - 1023;
  double m = pf_synth_double_of((b & 0xfffffffffffffULL) | 0x3ff0000000000000ULL);
  if (m > 0x1.6a09e667f3bcdp+0) {
    m = pf_synth_mul(m, 0.5);
    e += 1;
  }
  const double s = pf_synth_div(pf_synth_sub(m, 1.0), pf_synth_add(m, 1.0));
  const double s2 = pf_synth_mul(s, s);
  double p = 0x1.642c8590b2164p-5;  // 1/23
  p = pf_synth_add(pf_synth_mul(p, s2), 0x1.8618618618618p-5);
  p = pf_synth_add(pf_synth_mul(p, s2), 0x1.af286bca1af28p-5);
  p = pf_synth_add(pf_synth_mul(p, s2), 0x1.e1e1e1e1e1e1ep-5);
  p = pf_synth_add(pf_synth_mul(p, s2), 0x1.1111111111111p-4);
  p = pf_synth_add(pf_synth_mul(p, s2), 0x1.3b13b13b13b14p-4);
  p = pf_synth_add(pf_synth_mul(p, s2), 0x1.745d1745d1746p-4);
  p = pf_synth_add(pf_synth_mul(p, s2), 0x1.c71c71c71c71cp-4);
  p = pf_synth_add(pf_synth_mul(p, s2), 0x1.2492492492492p-3);
  p = pf_synth_add(pf_synth_mul(p, s2), 0x1.999999999999ap-3);
  p = pf_synth_add(pf_synth_mul(p, s2), 0x1.5555555555555p-2);  // 1/3
  const double two_s = pf_synth_mul(s, 2.0);
  const double log_m = pf_synth_add(two_s, pf_synth_mul(pf_synth_mul(two_s, s2), p));
  // ln 2 split so that e * ln2_hi is exact (fdlibm's constants).
  const double de = static_cast<double>(e);
  return pf_synth_add(pf_synth_mul(de, 0x1.62e42feep-1),
                      pf_synth_add(pf_synth_mul(de, 0x1.a39ef35793c76p-33), log_m));
}

// cos and sin of 2 pi (k + 0.5) / 2^53 for k < 2^53. The nearest quarter
// turn q and the remainder r (in quarter turns, |r| <= 1/2) are exact integer
// arithmetic; theta = r pi / 2 is in [-pi/4, pi/4], where Taylor polynomials
// to theta^17 / theta^18 are below 2^-58 off.
PF_SYNTH_FN void pf_synth_cos_sin_turn(unsigned long long k, double* c, double* s) {
  const unsigned long long q = (k + (1ULL << 50)) >> 51;  // 0..4
  const long long d = static_cast<long long>(2 * k + 1) - static_cast<long long>(q << 52);
  const double theta =
      pf_synth_mul(pf_synth_mul(static_cast<double>(d), 0x1.0p-52), 0x1.921fb54442d18p+0);
  const double t2 = pf_synth_mul(theta, theta);
  double ps = 0x1.952c77030ad4ap-49;  // 1/17!
  ps = pf_synth_add(pf_synth_mul(ps, t2), -0x1.ae7f3e733b81fp-41);
  ps = pf_synth_add(pf_synth_mul(ps, t2), 0x1.6124613a86d09p-33);
  ps = pf_synth_add(pf_synth_mul(ps, t2), -0x1.ae64567f544e4p-26);
  ps = pf_synth_add(pf_synth_mul(ps, t2), 0x1.71de3a556c734p-19);
  ps = pf_synth_add(pf_synth_mul(ps, t2), -0x1.a01a01a01a01ap-13);
  ps = pf_synth_add(pf_synth_mul(ps, t2), 0x1.1111111111111p-7);
  ps = pf_synth_add(pf_synth_mul(ps, t2), -0x1.5555555555555p-3);  // -1/3!
  const double sin_t = pf_synth_add(theta, pf_synth_mul(pf_synth_mul(theta, t2), ps));
  double pc = -0x1.6827863b97d97p-53;  // -1/18!
  pc = pf_synth_add(pf_synth_mul(pc, t2), 0x1.ae7f3e733b81fp-45);
  pc = pf_synth_add(pf_synth_mul(pc, t2), -0x1.93974a8c07c9dp-37);
  pc = pf_synth_add(pf_synth_mul(pc, t2), 0x1.1eed8eff8d898p-29);
  pc = pf_synth_add(pf_synth_mul(pc, t2), -0x1.27e4fb7789f5cp-22);
  pc = pf_synth_add(pf_synth_mul(pc, t2), 0x1.a01a01a01a01ap-16);
  pc = pf_synth_add(pf_synth_mul(pc, t2), -0x1.6c16c16c16c17p-10);
  pc = pf_synth_add(pf_synth_mul(pc, t2), 0x1.5555555555555p-5);
  pc = pf_synth_add(pf_synth_mul(pc, t2), -0.5);
  const double cos_t = pf_synth_add(1.0, pf_synth_mul(t2, pc));
  switch (q & 3) {
    case 0:
      *c = cos_t;
      *s = sin_t;
      break;
    case 1:
      *c = -sin_t;
      *s = cos_t;
      break;
    case 2:
      *c = -cos_t;
      *s = -sin_t;
      break;
    default:
      *c = sin_t;
      *s = -cos_t;
      break;
  }
}

// Standard normals 2p and 2p + 1 of stream `key` (Box-Muller on outputs 2p and
// 2p + 1): u1 = (top 53 bits + 1/2) / 2^53 in (0, 1], R = sqrt(-2 ln u1),
// angle 2 pi (top 53 bits of the second + 1/2) / 2^53; element 2p is R cos,
// element 2p + 1 is R sin.
PF_SYNTH_FN void pf_synth_normal_pair(unsigned long long key, unsigned long long p, double* even,
                                      double* odd) {
  const unsigned long long a = pf_synth_u64(key, 2 * p) >> 11;
  const unsigned long long b = pf_synth_u64(key, 2 * p + 1) >> 11;
  const double u1 = pf_synth_mul(pf_synth_add(static_cast<double>(a), 0.5), 0x1.0p-53);
  const double r = pf_synth_sqrt(pf_synth_mul(pf_synth_log(u1), -2.0));
  double c, s;
  pf_synth_cos_sin_turn(b, &c, &s);
  *even = pf_synth_mul(r, c);
  *odd = pf_synth_mul(r, s);
}

// Round-to-nearest-even of a double to a binary format with `man` mantissa
// and `expb` exponent bits (float16: 10, 5; bfloat16: 7, 8), from the
// double's bits (no double rounding through float); NaN stays a quiet NaN.
PF_SYNTH_FN unsigned short pf_synth_narrow_bits(double v, int man, int expb) {
  const unsigned long long b = pf_synth_bits_of(v);
  const unsigned int sign = static_cast<unsigned int>(b >> 63) << (man + expb);
  const int e = static_cast<int>((b >> 52) & 0x7ff);
  const unsigned long long frac = b & 0xfffffffffffffULL;
  const unsigned int inf = ((1u << expb) - 1) << man;
  if (e == 0x7ff) {
    return static_cast<unsigned short>(sign | inf | (frac != 0 ? 1u << (man - 1) : 0u));
  }
  if (e == 0) return static_cast<unsigned short>(sign);  // double subnormals round to 0
  const int te = e - 1023 + (1 << (expb - 1)) - 1;       // the target's biased exponent
  if (te >= (1 << expb) - 1) return static_cast<unsigned short>(sign | inf);
  const unsigned long long sig = frac | (1ULL << 52);
  const int shift = 52 - man + (te < 1 ? 1 - te : 0);
  if (shift >= 54) return static_cast<unsigned short>(sign);  // below half the least subnormal
  const unsigned long long q = sig >> shift;
  const unsigned long long rem = sig & ((1ULL << shift) - 1);
  const unsigned long long half = 1ULL << (shift - 1);
  unsigned long long out =
      te < 1 ? q : ((static_cast<unsigned long long>(te) << man) | (q & ((1ULL << man) - 1)));
  if (rem > half || (rem == half && (q & 1) != 0)) ++out;  // a carry rounds up to inf exactly
  return static_cast<unsigned short>(sign | out);
}

// --- the value rules ---------------------------------------------------------------

PF_SYNTH_FN double pf_synth_float_value(const PfSynthStream& s, double normal) {
  if (s.kind == PF_SYNTH_CONSTANT) return s.mean;
  const double v = pf_synth_add(pf_synth_mul(normal, s.scale), s.mean);
  return v < s.lo ? s.lo : (v > s.hi ? s.hi : v);
}

PF_SYNTH_FN long long pf_synth_int_value(const PfSynthStream& s, unsigned long long counter) {
  const unsigned long long z = pf_synth_u64(s.key, counter);
  return static_cast<long long>(static_cast<unsigned long long>(s.int_lo) +
                                (s.int_span == 0 ? z : z % s.int_span));
}

template <class T>
PF_SYNTH_FN void pf_synth_put(char* out, long long i, T v) {
#if defined(__CUDACC__)
  reinterpret_cast<T*>(out)[i] = v;
#else
  __builtin_memcpy(out + i * static_cast<long long>(sizeof(T)), &v, sizeof(T));
#endif
}

// Element i (value `normal` for the normal-based rules) stored as dtype tag
// `dtype`. Integer values were bounded to the dtype's range on the host.
PF_SYNTH_FN void pf_synth_store(const PfSynthStream& s, int dtype, char* out, long long i,
                                double normal) {
  switch (dtype) {
    case 0:
      pf_synth_put<unsigned char>(out, i, normal > 0.5 ? 1 : 0);
      return;  // bool
    case 1:
      pf_synth_put<unsigned char>(out, i, static_cast<unsigned char>(pf_synth_int_value(s, i)));
      return;
    case 2:
      pf_synth_put<signed char>(out, i, static_cast<signed char>(pf_synth_int_value(s, i)));
      return;
    case 3:
      pf_synth_put<short>(out, i, static_cast<short>(pf_synth_int_value(s, i)));
      return;
    case 4:
      pf_synth_put<int>(out, i, static_cast<int>(pf_synth_int_value(s, i)));
      return;
    case 5:
      pf_synth_put<long long>(out, i, pf_synth_int_value(s, i));
      return;
    case 6:
      pf_synth_put<unsigned short>(out, i,
                                   pf_synth_narrow_bits(pf_synth_float_value(s, normal), 10, 5));
      return;
    case 7:
      pf_synth_put<unsigned short>(out, i,
                                   pf_synth_narrow_bits(pf_synth_float_value(s, normal), 7, 8));
      return;
    case 8: {
      const double v = pf_synth_float_value(s, normal);
#if defined(__CUDACC__)
      pf_synth_put<float>(out, i, __double2float_rn(v));
#else
      pf_synth_put<float>(out, i, static_cast<float>(v));
#endif
      return;
    }
    default:
      pf_synth_put<double>(out, i, pf_synth_float_value(s, normal));
      return;
  }
}

// Elements 2p and 2p + 1 (those below n) of `s` as dtype tag `dtype`: the unit
// of work of both the CPU loop and one GPU thread.
PF_SYNTH_FN void pf_synth_fill_pair(const PfSynthStream& s, int dtype, char* out, long long n,
                                    long long p) {
  double even = 0, odd = 0;
  if (s.kind == PF_SYNTH_NORMAL || s.kind == PF_SYNTH_BOOL) {
    pf_synth_normal_pair(s.key, static_cast<unsigned long long>(p), &even, &odd);
  }
  pf_synth_store(s, dtype, out, 2 * p, even);
  if (2 * p + 1 < n) pf_synth_store(s, dtype, out, 2 * p + 1, odd);
}
