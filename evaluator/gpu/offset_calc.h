// The host side of the kernels' indexing (kernels/pf_abi.cuh): fast dividers,
// dim coalescing and offset calculators, as PyTorch's TensorIterator sets
// them up. Pure functions of shapes and strides (unit-tested without a GPU).
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "evaluator/core/shape.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"

namespace pf::gpu {

//! PyTorch's IntDivider: n / d == (umulhi(n, magic) + n) >> shift for n < 2^31.
PfDivider make_divider(uint32_t divisor);
//! The device's computation, on the host (tests).
uint32_t divide(const PfDivider& d, uint32_t n);

//! A shape and one stride vector per operand (elements, same rank).
struct Layout {
  Shape shape;
  std::vector<Strides> strides;
};

//! Drops size-1 dims and merges neighbours that are contiguous with each
//! other for every operand (TensorIterator::coalesce_dimensions); the
//! row-major order of elements is unchanged. A 0-dim input gives rank 0.
Layout coalesce(const Layout& in);

//! Strides of `strides`/`shape` broadcast (right-aligned) to `out_shape`:
//! 0 where the tensor has size 1 or lacks the dim.
Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& out_shape);

//! Coalesces and fills an offset calculator over up to PF_MAX_OPERANDS
//! operands with byte strides (element strides x element_sizes[k]). Errors
//! (unsupported) for more than PF_MAX_DIMS dims after coalescing, negative
//! strides, or 32-bit overflow of the element count or any byte offset.
Result<PfOffsetCalc> make_offset_calc(const Layout& layout,
                                      const std::vector<size_t>& element_sizes);

}  // namespace pf::gpu
