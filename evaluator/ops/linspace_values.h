// PyTorch's linspace values in the arithmetic of `dtype` (shared by
// torch.linspace and histc's bin edges, which PyTorch builds with linspace).
#pragma once

#include <cstdint>
#include <vector>

#include "evaluator/core/dtype.h"

namespace pf {

//! `steps` values from start to end inclusive, as PyTorch's symmetric form:
//! the first half counts up from start, the second half down from end, each
//! step rounded in dtype's opmath precision (float for float32 and below,
//! double for float64 and integers).
std::vector<double> linspace_values(double start, double end, int64_t steps, DType dtype);

}  // namespace pf
