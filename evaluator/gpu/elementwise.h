// Launching the elementwise kernels (kernels/elementwise.cuh) from op code:
// picks the vectorised kernel when every tensor operand is contiguous, of
// its static type and 16-byte aligned, else the strided kernel with an
// offset calculator over the broadcast operands (dtype conversion fused in
// the loads). One kernel per op, as PyTorch eager launches.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/plan_builder.h"

namespace pf::gpu {

//! An input: a tensor (broadcast to the output shape) or a literal number.
struct EwOperand {
  const DeviceTensor* tensor = nullptr;
  double literal = 0;       // floating compute
  int64_t literal_int = 0;  // integer and bool compute

  static EwOperand of(const DeviceTensor& t) { return EwOperand{&t, 0, 0}; }
  static EwOperand number(double v, int64_t i) { return EwOperand{nullptr, v, i}; }
};

struct EwLaunch {
  std::string file;                // "ew_arith.cu"
  std::string kernel;              // "add": launches pf_add_vec or pf_add_strided
  DType compute = DType::float32;  // the program dtype (scalar_t)
  DType out = DType::float32;      // compute, or bool for predicates
  std::vector<EwOperand> inputs;   // 1..3, in the functor's order
  unsigned bool_args = 0;          // inputs whose static type is bool (functor's bool_args)
  std::array<double, 4> s{};       // functor parameters (floating compute)
  std::array<int64_t, 4> si{};     // functor parameters (integer compute, modes)
  Shape shape;                     // the output shape
};

//! Allocates the output (contiguous) and adds the launch.
Result<DeviceTensor> launch_elementwise(PlanBuilder& b, const EwLaunch& launch);
//! Writes into `out` (any strides, shape launch.shape, dtype launch.out).
Status launch_elementwise_into(PlanBuilder& b, const EwLaunch& launch, const DeviceTensor& out);

//! Elements per 16-byte vector for a program dtype (kernels' PF_VEC).
int64_t vector_width(DType compute);

//! True when t can be read by a vectorised kernel of width `vec`: contiguous,
//! `shape`, and its first element aligned to vec elements.
bool vectorizable(const DeviceTensor& t, const Shape& shape, int64_t vec);

}  // namespace pf::gpu
