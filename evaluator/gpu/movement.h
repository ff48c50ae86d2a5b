// Launch helpers for exact data movement (kernels/layout.cu), shared by the
// layout and indexing families: source-coordinate remaps (flip, roll,
// padding) and gathers by index tensors. Elements move bit for bit, so the
// kernels run in the program of the element's width (movement_dtype).
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "evaluator/gpu/plan_builder.h"

namespace pf::gpu {

//! The layout.cu program that moves elements of `t`: uint8, int16, int32 or
//! int64 by element size.
DType movement_dtype(DType t);

//! How one output dim reads the input (PF_REMAP_* in pf_ops_abi.cuh).
struct RemapDim {
  int mode = 0;       // PF_REMAP_IDENTITY ...
  int64_t shift = 0;  // roll shift (normalised into [0, n)), pad before
};

//! out (contiguous, its own shape) = in at the per-dim remapped coordinates;
//! dims.size() == rank of out == rank of in (0-d: a single copy).
Status add_remap(PlanBuilder& b, const DeviceTensor& in, const DeviceTensor& out,
                 const std::vector<RemapDim>& dims, uint64_t fill = 0);

//! out (contiguous) = in (same shape and dtype, any non-negative strides) in
//! 16-byte units when widen_remap_to_16_bytes allows (a strided copy whose
//! innermost dim is contiguous, e.g. a slice or a permute keeping the last
//! dim); false, having added nothing, otherwise.
Result<bool> add_wide_copy(PlanBuilder& b, const DeviceTensor& in, const DeviceTensor& out);

//! Rewrites a remap of `element_size`-byte elements (innermost dim first, as
//! add_remap fills it) as the same remap over 16-byte units when that moves
//! the same bytes: the innermost dim is copied whole (identity, input stride
//! 1) in a multiple of 16 bytes, every other input stride and both addresses
//! are 16-byte aligned. Returns whether it did (then launch pf_remap_vec);
//! otherwise p is unchanged.
bool widen_remap_to_16_bytes(PfRemapParams& p, size_t element_size);

//! One index tensor of a gather: it is read at out coordinates through
//! `strides` (elements of the index tensor, 0 where broadcast; out's rank).
struct GatherIndex {
  const DeviceTensor* index = nullptr;
  Strides strides;
  int64_t size = 0;        // the indexed dim's size
  int64_t src_stride = 0;  // src elements per index step
};

//! out (contiguous) = src[base + sum_k idx_k * src_stride_k], base walking
//! src through `src_strides` (out's rank; 0 on dims the indices supply).
//! Up to PF_INDEX_MAX indices; `wrap`: negative indices count from the end.
Status add_index_gather(PlanBuilder& b, const DeviceTensor& src, const Strides& src_strides,
                        const std::vector<GatherIndex>& indices, bool wrap,
                        const DeviceTensor& out);

}  // namespace pf::gpu
