// Shapes and strides (in elements), with PyTorch's conventions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace pf {

using Shape = std::vector<int64_t>;
using Strides = std::vector<int64_t>;

int64_t shape_numel(const Shape& shape);
Strides contiguous_strides(const Shape& shape);
//! "[2, 3, 4]"
std::string shape_str(const Shape& shape);
//! Wraps a possibly negative dim into [0, rank); error names the op.
Result<int64_t> normalize_dim(int64_t dim, int64_t rank, const char* what);
//! NumPy/PyTorch broadcasting of two shapes.
Result<Shape> broadcast_shapes(const Shape& a, const Shape& b);

}  // namespace pf
