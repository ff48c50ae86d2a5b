// Broadcasting elementwise skeletons: operands that are tensors or Python
// numbers, PyTorch type promotion (type_promotion.h) and the binary op
// builder most arithmetic, comparison and logical ops are made of.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "evaluator/ops/op_info.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {

//! A stride-0 view of `t` with `shape` (which t must broadcast to).
Tensor broadcast_to(const Tensor& t, const Shape& shape);

//! Broadcasts the shapes of the given operand parameters (numbers count as
//! []); the error names the op, the parameters and their shapes.
Result<Shape> broadcast_params(const BoundArgs<TensorType>& args,
                               std::initializer_list<size_t> params);

//! Type promotion over the given operand parameters (tensors and numbers).
Result<DType> promote_params(const BoundArgs<TensorType>& args,
                             std::initializer_list<size_t> params);

//! An elementwise operand on the CPU: a tensor broadcast to the output shape,
//! or a number. Values are converted as PyTorch's CUDA kernels convert them:
//! floats to the opmath type of the compute dtype (opmath_type), integers
//! wrapped to the compute dtype.
class Operand {
 public:
  Operand(const BoundArgs<Tensor>& args, size_t param, const Shape& out_shape);
  bool is_tensor() const { return tensor_.defined(); }
  double real(int64_t i, DType compute) const;
  int64_t integer(int64_t i, DType compute) const;

 private:
  Tensor tensor_;
  double real_ = 0;
  int64_t integer_ = 0;
  bool literal_is_int_ = false;
};

enum class BinaryDtype : uint8_t {
  promote,          // result_type of the operands (torch.add)
  float_promoting,  // result_type, integers/bool -> default float (true division)
  to_bool,          // compare in result_type, bool out (torch.eq)
};

using BinaryFn = std::function<double(double, double)>;
//! Exact 64-bit integer path; an error reports e.g. integer division by zero.
using BinaryIntFn = std::function<Result<int64_t>(int64_t, int64_t)>;

struct BinaryKernels {
  BinaryFn fn;
  BinaryIntFn int_fn;  // null: integer operands go through fn in float64
};

//! Reads the op's literal parameters and checks the compute dtype once
//! (inference and execution), returning the element functions.
using BinaryBinder = std::function<Result<BinaryKernels>(const ArgReader&, DType compute)>;

//! Rejects operand dtypes an op does not take (sub with a bool operand).
using OperandCheck = std::function<Status(const ArgReader&, const std::vector<OperandType>&)>;

struct BinaryOpDef {
  std::string name;
  std::vector<std::string> aliases;
  std::string lhs = "input";
  std::string rhs = "other";
  std::vector<ParamDef> extra_params;  // after the two operands
  BinaryDtype dtype_rule = BinaryDtype::promote;
  //! Optional: a dtype rule chosen by a literal parameter (div's rounding_mode).
  std::function<BinaryDtype(const ArgReader&)> dtype_rule_fn;
  OperandCheck check;  // optional
  BinaryBinder bind;
  OverloadFn overload;
  std::string doc;
};

//! Both operands are tensor_or_scalar parameters (`2 * x`, `x - 1`); at least
//! one must be a tensor.
OpInfo binary_op(BinaryOpDef def);

//! A binder without parameters: fn for floats, int_fn (optional) for integers.
BinaryBinder plain_binary(BinaryFn fn, BinaryIntFn int_fn = nullptr);

//! Errors for a compute dtype an op does not support ("sub: bool tensors are
//! not supported; use logical_xor").
Error dtype_error(const ArgReader& args, DType compute, const std::string& what);

}  // namespace pf
