#include "evaluator/core/half.h"

#include <cmath>
#include <cstring>

namespace pf {
namespace {

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// double -> float rounding to odd: truncate, then set the lowest bit if inexact.
// A later RNE rounding to a narrower format is then correctly rounded.
float to_float_round_odd(double v) {
  if (std::isnan(v) || std::isinf(v)) return static_cast<float>(v);
  float f = static_cast<float>(v);  // RNE
  if (static_cast<double>(f) == v) return f;
  // Step toward zero if RNE rounded away from zero, then force the odd bit.
  if (std::fabs(static_cast<double>(f)) > std::fabs(v)) {
    f = std::nextafter(f, 0.0f);
  }
  uint32_t u = float_bits(f);
  if (std::isinf(f)) return f;
  u |= 1u;
  return bits_float(u);
}

}  // namespace

uint16_t float_to_half_bits(float f) {
  uint32_t x = float_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t exp = (x >> 23) & 0xffu;
  uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) {  // inf or nan
    return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0u));
  }
  int32_t e = static_cast<int32_t>(exp) - 127 + 15;
  if (e >= 0x1f) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
  if (e <= 0) {
    // Subnormal half (or zero): shift the mantissa with the implicit bit.
    if (e < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half_mant = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half_mant & 1u))) ++half_mant;
    return static_cast<uint16_t>(sign | half_mant);
  }
  uint32_t half_mant = mant >> 13;
  uint32_t rem = mant & 0x1fffu;
  uint32_t out = sign | (static_cast<uint32_t>(e) << 10) | half_mant;
  if (rem > 0x1000u || (rem == 0x1000u && (half_mant & 1u))) ++out;  // may carry into exp
  return static_cast<uint16_t>(out);
}

// Exponent and mantissa moved into a float's fields read as a float 2^112
// times too small (float's exponent bias is 127, half's 15): one exact
// multiplication then gives normals and subnormals alike, without a branch
// per element (host checks decode millions of halves). inf and NaN (exponent
// 31) take float's exponent 255 and keep the payload.
float half_bits_to_float(uint16_t h) {
  const uint32_t sign = (uint32_t(h) & 0x8000u) << 16;
  const uint32_t rest = uint32_t(h) & 0x7fffu;
  const float magnitude = rest >= 0x7c00u ? bits_float(0x7f800000u | ((rest & 0x3ffu) << 13))
                                          : bits_float(rest << 13) * 0x1p112f;
  return bits_float(float_bits(magnitude) | sign);
}

uint16_t float_to_bfloat16_bits(float f) {
  uint32_t x = float_bits(f);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40u);
  uint32_t lsb = (x >> 16) & 1u;
  x += 0x7fffu + lsb;
  return static_cast<uint16_t>(x >> 16);
}

float bfloat16_bits_to_float(uint16_t b) {
  return bits_float(uint32_t(b) << 16);
}

uint16_t double_to_half_bits(double v) {
  return float_to_half_bits(to_float_round_odd(v));
}
uint16_t double_to_bfloat16_bits(double v) {
  return float_to_bfloat16_bits(to_float_round_odd(v));
}
double round_to_half(double v) {
  return half_bits_to_float(double_to_half_bits(v));
}
double round_to_bfloat16(double v) {
  return bfloat16_bits_to_float(double_to_bfloat16_bits(v));
}

}  // namespace pf
