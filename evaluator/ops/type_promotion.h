// PyTorch's result-type rule for elementwise ops (torch.result_type):
// operands rank by priority — tensors with dimensions, then 0-dim tensors,
// then wrapped Python scalars — and a lower class only matters when it is of
// a higher category (bool < integer < floating). So `int_tensor * 2.5` is
// float32, `float16_tensor + 1.0` stays float16, `bool_tensor + 1` is int64.
#pragma once

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "evaluator/core/dtype.h"
#include "evaluator/core/tensor.h"
#include "evaluator/ops/bound_args.h"

namespace pf {

inline constexpr DType kDefaultFloat = DType::float32;  // torch.get_default_dtype()

struct OperandType {
  DType dtype = DType::float32;
  bool zero_dim = false;  // a 0-dim tensor
  bool wrapped = false;   // a Python number: int -> int64, float -> default float, bool
};

DType result_type(const std::vector<OperandType>& operands);

//! Integral and bool dtypes become the default float (true division, exp of an int).
DType floating_or_default(DType t);

//! The type of an elementwise operand: a tensor argument or a number literal.
Result<OperandType> operand_type(const BoundArgs<TensorType>& args, size_t i);

//! The shape an operand contributes to broadcasting ([] for a number).
Shape operand_shape(const BoundArgs<TensorType>& args, size_t i);

//! The precision PyTorch computes `dtype` in (its "opmath" type): float32 for
//! the 16-bit floats, the dtype itself otherwise.
DType opmath_type(DType dtype);

//! v rounded as a store to `dtype` would round it (integers truncate and wrap).
double round_to_dtype(double v, DType dtype);

//! An int64 wrapped to `dtype`'s width (two's complement), as PyTorch's
//! integer arithmetic overflows; bool maps non-zero to 1.
int64_t wrap_to_dtype(int64_t v, DType dtype);

}  // namespace pf
