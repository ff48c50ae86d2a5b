// cuDNN convolution steps for the convolution family (ops_conv.cpp), as
// PyTorch's cudnn_convolution / cudnn_convolution_transpose run them with
// torch.backends.cudnn.benchmark = False: descriptors for contiguous NCHW
// tensors, the first algorithm cuDNN's v7 heuristics rank that succeeds,
// its math type, workspace from the plan's allocator. Everything is decided
// while the plan is built; the plan step is the one cuDNN call.
#pragma once

#include <array>

#include "common/result.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/gpu_runtime.h"
#include "evaluator/gpu/plan_builder.h"

namespace pf::gpu {

//! A 2-d or 3-d convolution over contiguous 4-d or 5-d tensors (1-d as
//! height 1). Slots are (depth, height, width); a 2-d convolution leaves the
//! depth slot at its identity.
struct ConvGeometry {
  std::array<int, 3> pad{0, 0, 0};
  std::array<int, 3> stride{1, 1, 1};
  std::array<int, 3> dil{1, 1, 1};
  int groups = 1;
  bool transposed = false;
};

//! Forward: y = conv(x, w); transposed: y = conv_transpose(x, w) (cuDNN's
//! backward data with x as dy). x, w, y contiguous, all 4-d or all 5-d, one
//! floating dtype.
//! No bias (PyTorch adds it with a separate kernel).
Status add_cudnn_conv(PlanBuilder& b, CudnnState& cudnn, const ConvGeometry& g,
                      const DeviceTensor& x, const DeviceTensor& w, const DeviceTensor& y);

}  // namespace pf::gpu
