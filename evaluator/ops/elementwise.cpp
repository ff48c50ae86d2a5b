#include "evaluator/ops/elementwise.h"

#include "evaluator/ops/op_util.h"

namespace pf {

Tensor broadcast_to(const Tensor& t, const Shape& shape) {
  if (t.shape() == shape) return t;
  PF_CHECK(shape.size() >= t.shape().size());
  size_t lead = shape.size() - t.shape().size();
  Strides strides(shape.size(), 0);
  for (size_t i = 0; i < t.shape().size(); ++i) {
    PF_CHECK(t.shape()[i] == shape[lead + i] || t.shape()[i] == 1);
    strides[lead + i] = t.shape()[i] == 1 ? 0 : t.strides()[i];
  }
  return Tensor::view_of(t, shape, strides, t.offset());
}

Result<Shape> broadcast_params(const BoundArgs<TensorType>& args,
                               std::initializer_list<size_t> params) {
  Shape out;
  std::string described;
  for (size_t p : params) {
    Shape s = operand_shape(args, p);
    auto merged = broadcast_shapes(out, s);
    std::string name = args.param_name(p);
    if (!merged.ok()) {
      return make_error(ErrorCode::invalid_argument, args.op() +
                                                         ": shapes do not broadcast: " + described +
                                                         ", '" + name + "' " + shape_str(s));
    }
    described += (described.empty() ? "'" : ", '") + name + "' " + shape_str(s);
    out = *merged;
  }
  return out;
}

Result<DType> promote_params(const BoundArgs<TensorType>& args,
                             std::initializer_list<size_t> params) {
  std::vector<OperandType> types;
  for (size_t p : params) {
    PF_ASSIGN(OperandType t, operand_type(args, p));
    types.push_back(t);
  }
  return result_type(types);
}

Operand::Operand(const BoundArgs<Tensor>& args, size_t param, const Shape& out_shape) {
  const Arg& a = args.arg(param);
  if (a.is_value()) {
    tensor_ = broadcast_to(args.tensor(param), out_shape);
  } else if (a.kind == Arg::Kind::real) {
    real_ = a.f;
  } else {
    integer_ = a.kind == Arg::Kind::boolean ? (a.b ? 1 : 0) : a.i;
    real_ = static_cast<double>(integer_);
    literal_is_int_ = true;
  }
}

double Operand::real(int64_t i, DType compute) const {
  // PyTorch's CUDA kernels load every operand straight into the opmath type
  // (float for half/bfloat16), without an intermediate rounding to `compute`.
  return round_to_dtype(tensor_.defined() ? tensor_.get(i) : real_, opmath_type(compute));
}

int64_t Operand::integer(int64_t i, DType compute) const {
  if (tensor_.defined()) return wrap_to_dtype(tensor_.get_int(i), compute);
  return wrap_to_dtype(literal_is_int_ ? integer_ : static_cast<int64_t>(real_), compute);
}

namespace {

struct BinaryTypes {
  DType compute;
  DType out;
};

// Operand types from literals (shared by inference and execution); tensors
// are filled in by the caller.
OperandType literal_type(const Arg& a) {
  DType t = a.kind == Arg::Kind::real      ? DType::float64
            : a.kind == Arg::Kind::boolean ? DType::boolean
                                           : DType::int64;
  return OperandType{t, true, true};
}

Result<BinaryTypes> binary_types(const BinaryOpDef& def, const ArgReader& a,
                                 const std::vector<OperandType>& operands) {
  if (!a.is_tensor(0) && !a.is_tensor(1)) {
    return make_error(ErrorCode::invalid_argument, def.name + ": at least one of '" + def.lhs +
                                                       "' and '" + def.rhs + "' must be a tensor");
  }
  if (def.check) PF_TRY(def.check(a, operands));
  DType common = result_type(operands);
  BinaryDtype rule = def.dtype_rule_fn ? def.dtype_rule_fn(a) : def.dtype_rule;
  switch (rule) {
    case BinaryDtype::promote:
      return BinaryTypes{common, common};
    case BinaryDtype::float_promoting: {
      DType f = floating_or_default(common);
      return BinaryTypes{f, f};
    }
    case BinaryDtype::to_bool:
      return BinaryTypes{common, DType::boolean};
  }
  return BinaryTypes{common, common};
}

}  // namespace

OpInfo binary_op(BinaryOpDef def) {
  OpInfo op;
  op.name = def.name;
  op.aliases = def.aliases;
  op.doc = def.doc;
  op.overload = def.overload;
  op.params.push_back(param(def.lhs, ParamKind::tensor_or_scalar));
  op.params.push_back(param(def.rhs, ParamKind::tensor_or_scalar));
  for (auto& p : def.extra_params) op.params.push_back(p);
  auto shared = std::make_shared<const BinaryOpDef>(std::move(def));
  op.infer = [shared](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    std::vector<OperandType> operands;
    for (size_t p = 0; p < 2; ++p) {
      PF_ASSIGN(OperandType t, operand_type(a, p));
      operands.push_back(t);
    }
    PF_ASSIGN(BinaryTypes types, binary_types(*shared, a, operands));
    PF_ASSIGN(Shape shape, broadcast_params(a, {0, 1}));
    PF_TRY(shared->bind(a, types.compute));
    return std::vector<TensorType>{{types.out, shape}};
  };
  op.cpu = [shared](const BoundArgs<Tensor>& a,
                    const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    std::vector<OperandType> operands;
    for (size_t p = 0; p < 2; ++p) {
      operands.push_back(a.is_tensor(p)
                             ? OperandType{a.tensor(p).dtype(), a.tensor(p).dim() == 0, false}
                             : literal_type(a.arg(p)));
    }
    PF_ASSIGN(BinaryTypes types, binary_types(*shared, a, operands));
    PF_ASSIGN(BinaryKernels k, shared->bind(a, types.compute));
    DType compute = types.compute;
    const Shape& shape = out[0].shape;
    Operand x(a, 0, shape), y(a, 1, shape);
    Tensor result = Tensor::zeros(out[0].dtype, shape);
    int64_t n = result.numel();
    if (!is_floating(compute) && k.int_fn) {
      for (int64_t i = 0; i < n; ++i) {
        auto r = k.int_fn(x.integer(i, compute), y.integer(i, compute));
        if (!r.ok()) {
          return make_error(ErrorCode::invalid_argument, shared->name + ": " + r.error().message);
        }
        result.set_int(i, wrap_to_dtype(*r, out[0].dtype));
      }
    } else {
      for (int64_t i = 0; i < n; ++i) result.set(i, k.fn(x.real(i, compute), y.real(i, compute)));
    }
    return std::vector<Tensor>{result};
  };
  return op;
}

BinaryBinder plain_binary(BinaryFn fn, BinaryIntFn int_fn) {
  return [fn = std::move(fn), int_fn = std::move(int_fn)](const ArgReader&,
                                                          DType) -> Result<BinaryKernels> {
    return BinaryKernels{fn, int_fn};
  };
}

Error dtype_error(const ArgReader& args, DType compute, const std::string& what) {
  return make_error(ErrorCode::invalid_argument, args.op() + ": " + dtype_name(compute) +
                                                     " operands are not supported" +
                                                     (what.empty() ? "" : "; " + what));
}

}  // namespace pf
