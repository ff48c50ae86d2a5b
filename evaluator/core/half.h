// IEEE binary16 and bfloat16 conversions with round-to-nearest-even, so CPU
// reference results round exactly as the GPU (and PyTorch) do.
#pragma once

#include <cstdint>

namespace pf {

uint16_t float_to_half_bits(float f);
float half_bits_to_float(uint16_t h);
uint16_t float_to_bfloat16_bits(float f);
float bfloat16_bits_to_float(uint16_t b);

//! Rounds a double to the nearest float16 / bfloat16 value (RNE), via float
//! without double rounding: the double is first rounded to float with
//! round-to-odd, which makes the second rounding exact.
double round_to_half(double v);
double round_to_bfloat16(double v);
uint16_t double_to_half_bits(double v);
uint16_t double_to_bfloat16_bits(double v);

}  // namespace pf
