// The per-output taps of interpolate's antialiased modes, shared by the CPU
// reference (ops/interpolate.cpp) and the GPU baseline, which uploads them
// as tables (gpu/ops_interpolate.cpp): both weigh the same input pixels
// with the same weights, computed once as PyTorch computes them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace pf {

struct InterpTap {
  int64_t index;  // input position along the dim
  double weight;
};
using InterpTaps = std::vector<std::vector<InterpTap>>;  // per output index, ascending inputs

//! Taps of one spatial dim for interpolate(..., antialias=True): PyTorch's
//! triangle (bilinear) or Keys a = -0.5 (bicubic) filter stretched by the
//! downscale factor, normalised to sum 1; computed in float, or in double
//! for float64 inputs (PyTorch's opmath). `scale` is the user's factor
//! (nullopt: in / out).
InterpTaps antialias_taps(bool bicubic, bool float64, int64_t in, int64_t out, bool align_corners,
                          std::optional<double> scale);

}  // namespace pf
