// Arithmetic: add, sub, mul, div (rounding modes), floor_divide, remainder,
// fmod, pow, rsub, neg, positive, abs, reciprocal, addcmul, addcdiv, and the
// float-promoting atan2, hypot, copysign, logaddexp, xlogy. Broadcasting and type
// promotion with Python numbers as PyTorch (elementwise.h); integers are exact
// 64-bit and wrap like PyTorch's; integer division by zero is an error.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "evaluator/ops/elementwise.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

int64_t wrap_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrap_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

Error zero_division() {
  return make_error(ErrorCode::invalid_argument, "integer division by zero (ZeroDivisionError)");
}

// Python's floor division and modulo, as PyTorch computes them.
double floor_divide_real(double a, double b) {
  if (b == 0) return a / b;
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
  if (div == 0) return std::copysign(0.0, a / b);
  double floordiv = std::floor(div);
  if (div - floordiv > 0.5) floordiv += 1;
  return floordiv;
}

Result<int64_t> floor_divide_int(int64_t a, int64_t b) {
  if (b == 0) return zero_division();
  if (b == -1) return wrap_mul(a, -1);
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

Result<int64_t> trunc_divide_int(int64_t a, int64_t b) {
  if (b == 0) return zero_division();
  if (b == -1) return wrap_mul(a, -1);
  return a / b;
}

double remainder_real(double a, double b) {
  double mod = std::fmod(a, b);
  if (mod != 0 && (b < 0) != (mod < 0)) mod += b;
  return mod;
}

Result<int64_t> remainder_int(int64_t a, int64_t b) {
  if (b == 0) return zero_division();
  if (b == -1) return 0;
  int64_t mod = a % b;
  if (mod != 0 && (b < 0) != (mod < 0)) mod += b;
  return mod;
}

// PyTorch's powi: negative exponents give 0 except for bases 1 and -1.
int64_t pow_int(int64_t base, int64_t exp) {
  if (exp < 0) {
    if (base == 1) return 1;
    if (base == -1) return (-exp) % 2 ? -1 : 1;
    return 0;
  }
  int64_t result = 1;
  while (exp) {
    if (exp & 1) result = wrap_mul(result, base);
    exp >>= 1;
    base = wrap_mul(base, base);
  }
  return result;
}

bool any_bool(const std::vector<OperandType>& operands) {
  for (const auto& o : operands) {
    if (o.dtype == DType::boolean) return true;
  }
  return false;
}

ParamDef alpha_param() {
  return kwarg("alpha", ParamKind::scalar, Arg::make_int(1));
}

// add/sub/rsub: x + sign * alpha * y. Integer compute needs an integral alpha.
BinaryBinder alpha_binder(int64_t sign, size_t alpha_index) {
  return [sign, alpha_index](const ArgReader& a, DType compute) -> Result<BinaryKernels> {
    const Arg& alpha_arg = a.arg(alpha_index);
    if (!is_floating(compute) && alpha_arg.kind == Arg::Kind::real) {
      return a.error(alpha_index, "must be an integer for integral inputs, got a float");
    }
    PF_ASSIGN(double alpha, a.real(alpha_index));
    int64_t alpha_int = alpha_arg.kind == Arg::Kind::integer   ? alpha_arg.i
                        : alpha_arg.kind == Arg::Kind::boolean ? (alpha_arg.b ? 1 : 0)
                                                               : 0;
    double alpha_real = round_to_dtype(alpha, opmath_type(compute));
    BinaryKernels k;
    k.fn = [sign, alpha_real](double x, double y) {
      return x + static_cast<double>(sign) * alpha_real * y;
    };
    k.int_fn = [sign, alpha_int](int64_t x, int64_t y) -> Result<int64_t> {
      return wrap_add(x, wrap_mul(sign * alpha_int, y));
    };
    return k;
  };
}

Status reject_bool_sub(const ArgReader& a, const std::vector<OperandType>& operands) {
  if (any_bool(operands)) {
    return make_error(ErrorCode::invalid_argument,
                      a.op() +
                          ": subtraction with a bool tensor is not supported; use "
                          "logical_xor (x ^ y) or logical_not (~x) instead");
  }
  return ok_status();
}

OpInfo add_op() {
  BinaryOpDef d;
  d.name = "add";
  d.aliases = {"torch.add", "Tensor.add", "Tensor.add_", "operator.add", "operator.iadd"};
  d.extra_params = {alpha_param()};
  d.bind = alpha_binder(1, 2);
  d.doc = "input + alpha * other, broadcasting";
  return binary_op(std::move(d));
}

OpInfo sub_op() {
  BinaryOpDef d;
  d.name = "sub";
  d.aliases = {"torch.sub",       "torch.subtract", "Tensor.sub",   "Tensor.sub_",
               "Tensor.subtract", "operator.sub",   "operator.isub"};
  d.extra_params = {alpha_param()};
  d.check = reject_bool_sub;
  d.bind = alpha_binder(-1, 2);
  d.doc = "input - alpha * other, broadcasting";
  return binary_op(std::move(d));
}

OpInfo rsub_op() {
  BinaryOpDef d;
  d.name = "rsub";
  d.aliases = {"torch.rsub"};
  d.extra_params = {alpha_param()};
  d.check = reject_bool_sub;
  // other - alpha * input: swap the roles in the kernel.
  d.bind = [](const ArgReader& a, DType compute) -> Result<BinaryKernels> {
    PF_ASSIGN(BinaryKernels k, alpha_binder(-1, 2)(a, compute));
    return BinaryKernels{[f = k.fn](double x, double y) { return f(y, x); },
                         [f = k.int_fn](int64_t x, int64_t y) { return f(y, x); }};
  };
  d.doc = "other - alpha * input";
  return binary_op(std::move(d));
}

OpInfo mul_op() {
  BinaryOpDef d;
  d.name = "mul";
  d.aliases = {"torch.mul",       "torch.multiply", "Tensor.mul",   "Tensor.mul_",
               "Tensor.multiply", "operator.mul",   "operator.imul"};
  d.bind = plain_binary([](double x, double y) { return x * y; },
                        [](int64_t x, int64_t y) -> Result<int64_t> { return wrap_mul(x, y); });
  d.doc = "input * other, broadcasting";
  return binary_op(std::move(d));
}

OpInfo div_op() {
  BinaryOpDef d;
  d.name = "div";
  d.aliases = {"torch.div",          "torch.divide",     "torch.true_divide",
               "Tensor.div",         "Tensor.div_",      "Tensor.divide",
               "Tensor.true_divide", "operator.truediv", "operator.itruediv"};
  d.extra_params = {kwarg("rounding_mode", ParamKind::optional_string, Arg::make_none())};
  d.dtype_rule_fn = [](const ArgReader& a) {
    return a.is_none(2) ? BinaryDtype::float_promoting : BinaryDtype::promote;
  };
  d.bind = [](const ArgReader& a, DType compute) -> Result<BinaryKernels> {
    if (a.is_none(2)) return BinaryKernels{[](double x, double y) { return x / y; }, nullptr};
    PF_ASSIGN(std::string mode, a.string(2));
    DType opmath = opmath_type(compute);
    if (mode == "trunc") {
      // The quotient is rounded to the compute precision before truncation.
      return BinaryKernels{
          [opmath](double x, double y) { return std::trunc(round_to_dtype(x / y, opmath)); },
          trunc_divide_int};
    }
    if (mode == "floor") return BinaryKernels{floor_divide_real, floor_divide_int};
    return a.error(2, "expected None, 'trunc' or 'floor', got '" + mode + "'");
  };
  d.doc = "input / other; rounding_mode None (true division), 'trunc' or 'floor'";
  return binary_op(std::move(d));
}

OpInfo floor_divide_op() {
  BinaryOpDef d;
  d.name = "floor_divide";
  d.aliases = {"torch.floor_divide", "Tensor.floor_divide", "Tensor.floor_divide_",
               "operator.floordiv", "operator.ifloordiv"};
  d.bind = plain_binary(floor_divide_real, floor_divide_int);
  d.doc = "input // other (rounds toward negative infinity)";
  return binary_op(std::move(d));
}

OpInfo remainder_op() {
  BinaryOpDef d;
  d.name = "remainder";
  d.aliases = {"torch.remainder", "Tensor.remainder", "Tensor.remainder_", "operator.mod",
               "operator.imod"};
  d.bind = plain_binary(remainder_real, remainder_int);
  d.doc = "input % other with the sign of other (Python modulo)";
  return binary_op(std::move(d));
}

OpInfo fmod_op() {
  BinaryOpDef d;
  d.name = "fmod";
  d.aliases = {"torch.fmod", "Tensor.fmod", "Tensor.fmod_"};
  d.bind = plain_binary([](double x, double y) { return std::fmod(x, y); },
                        [](int64_t x, int64_t y) -> Result<int64_t> {
                          if (y == 0) return zero_division();
                          return y == -1 ? 0 : x % y;
                        });
  d.doc = "C fmod: remainder with the sign of input";
  return binary_op(std::move(d));
}

OpInfo pow_op() {
  BinaryOpDef d;
  d.name = "pow";
  d.aliases = {"torch.pow", "Tensor.pow", "Tensor.pow_", "operator.pow", "operator.ipow"};
  d.lhs = "input";
  d.rhs = "exponent";
  d.bind = [](const ArgReader& a, DType compute) -> Result<BinaryKernels> {
    const Arg& e = a.arg(1);
    if (!is_floating(compute) && e.kind == Arg::Kind::integer && e.i < 0) {
      return a.error(1, "integers to negative integer powers are not allowed");
    }
    return BinaryKernels{[](double x, double y) { return std::pow(x, y); },
                         [](int64_t x, int64_t y) -> Result<int64_t> { return pow_int(x, y); }};
  };
  d.doc = "input ** exponent (tensor or number on either side)";
  return binary_op(std::move(d));
}

Error reject_bool(const ArgReader& a, const char* what) {
  return make_error(ErrorCode::invalid_argument,
                    a.op() + ": " + what + " on a bool tensor is not supported");
}

OpInfo neg_op() {
  UnaryOpDef d;
  d.name = "neg";
  d.aliases = {"torch.neg",   "torch.negative",  "Tensor.neg",
               "Tensor.neg_", "Tensor.negative", "operator.neg"};
  d.dtype_rule = UnaryDtype::same;
  d.bind = plain([](double x) { return -x; });
  d.int_fn = [](int64_t x) { return wrap_mul(x, -1); };
  d.doc = "-input";
  return unary_op(std::move(d));
}

OpInfo abs_op() {
  UnaryOpDef d;
  d.name = "abs";
  d.aliases = {"torch.abs", "torch.absolute", "Tensor.abs", "Tensor.abs_", "Tensor.absolute"};
  d.dtype_rule = UnaryDtype::same;
  d.bind = plain([](double x) { return std::fabs(x); });
  d.int_fn = [](int64_t x) { return x < 0 ? wrap_mul(x, -1) : x; };
  d.doc = "|input|";
  return unary_op(std::move(d));
}

OpInfo reciprocal_op() {
  UnaryOpDef d;
  d.name = "reciprocal";
  d.aliases = {"torch.reciprocal", "Tensor.reciprocal", "Tensor.reciprocal_"};
  d.dtype_rule = UnaryDtype::float_promoting;
  d.bind = plain([](double x) { return 1.0 / x; });
  d.doc = "1 / input (integers promote to float32)";
  return unary_op(std::move(d));
}

// `+x` returns x itself in PyTorch (no copy).
OpInfo positive_op() {
  OpInfo op;
  op.name = "positive";
  op.aliases = {"torch.positive", "Tensor.positive", "operator.pos"};
  op.params = {tensor_param("input")};
  op.may_alias = true;
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    if (a.tensor(0).dtype == DType::boolean) return reject_bool(a, "the unary + operator");
    return std::vector<TensorType>{a.tensor(0)};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    return std::vector<Tensor>{a.tensor(0)};
  };
  op.doc = "+input (returns input itself)";
  return op;
}

// addcmul(input, tensor1, tensor2, *, value=1) = input + value * tensor1 * tensor2
// and addcdiv (the quotient instead), broadcast and promoted over all three,
// as PyTorch: integer addcmul is exact and wraps, its value must be an integer;
// integer addcdiv is refused (PyTorch removed it).
OpInfo addc_op(bool divide) {
  OpInfo op;
  op.name = divide ? "addcdiv" : "addcmul";
  op.aliases = {"torch." + op.name, "Tensor." + op.name, "Tensor." + op.name + "_"};
  op.params = {tensor_param("input"), tensor_param("tensor1"), tensor_param("tensor2"),
               kwarg("value", ParamKind::scalar, Arg::make_int(1)), ignored_param("out")};
  op.infer = [divide](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(DType t, promote_params(a, {0, 1, 2}));
    PF_ASSIGN(Shape shape, broadcast_params(a, {0, 1, 2}));
    PF_TRY(a.real(3));
    if (!is_floating(t)) {
      if (divide) {
        return a.error(1,
                       "integer division with addcdiv is not supported (as in PyTorch); "
                       "use a floating dtype");
      }
      if (a.arg(3).kind == Arg::Kind::real) {
        return a.error(3,
                       std::string("a float value cannot multiply ") + dtype_name(t) + " tensors");
      }
    }
    return std::vector<TensorType>{{t, shape}};
  };
  op.cpu = [divide](const BoundArgs<Tensor>& a,
                    const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Shape& shape = out[0].shape;
    DType t = out[0].dtype;
    Operand x(a, 0, shape), p(a, 1, shape), q(a, 2, shape);
    PF_ASSIGN(double value, a.real(3));
    Tensor result = Tensor::zeros(t, shape);
    if (!is_floating(t)) {
      const Arg& v = a.arg(3);
      int64_t vi = v.kind == Arg::Kind::boolean ? (v.b ? 1 : 0) : v.i;
      for (int64_t i = 0, n = result.numel(); i < n; ++i) {
        int64_t prod = wrap_mul(vi, wrap_mul(p.integer(i, t), q.integer(i, t)));
        result.set_int(i, wrap_add(x.integer(i, t), prod));
      }
      return std::vector<Tensor>{result};
    }
    double v = round_to_dtype(value, opmath_type(t));
    for (int64_t i = 0, n = result.numel(); i < n; ++i) {
      double r = divide ? p.real(i, t) / q.real(i, t) : p.real(i, t) * q.real(i, t);
      result.set(i, x.real(i, t) + v * r);
    }
    return std::vector<Tensor>{result};
  };
  op.doc = divide ? "input + value * tensor1 / tensor2, broadcasting"
                  : "input + value * tensor1 * tensor2, broadcasting";
  return op;
}

// atan2, hypot, copysign, logaddexp, xlogy: integer and bool operands compute
// in (and return) the default float, as PyTorch.
// hypot and logaddexp: PyTorch has no integer kernel (their result type must
// already be floating), unlike atan2, copysign and xlogy.
Status floating_result(const ArgReader& a, const std::vector<OperandType>& operands) {
  if (is_floating(result_type(operands))) return ok_status();
  return make_error(ErrorCode::invalid_argument,
                    a.op() + ": integer or bool operands are not supported (as in PyTorch)");
}

OpInfo float_binary_op(const std::string& name, std::vector<std::string> extra,
                       double (*fn)(double, double), bool floating_only = false) {
  BinaryOpDef d;
  if (floating_only) d.check = floating_result;
  d.name = name;
  d.aliases = {"torch." + name, "Tensor." + name, "Tensor." + name + "_"};
  for (auto& e : extra) d.aliases.push_back(std::move(e));
  d.dtype_rule = BinaryDtype::float_promoting;
  d.bind = plain_binary(fn);
  d.doc = name + " of the two operands (float-promoting)";
  return binary_op(std::move(d));
}

double logaddexp(double a, double b) {
  if (std::isinf(a) && a == b) return a;
  return std::max(a, b) + std::log1p(std::exp(-std::fabs(a - b)));
}

double xlogy(double x, double y) {
  if (std::isnan(y)) return y;
  return x == 0 ? 0.0 : x * std::log(y);
}

// lerp(input, end, weight): floating only, one dtype for every tensor (as
// PyTorch), PyTorch's two-sided formula in opmath.
OpInfo lerp_op() {
  OpInfo op;
  op.name = "lerp";
  op.aliases = {"torch.lerp", "Tensor.lerp", "Tensor.lerp_"};
  op.params = {tensor_param("input"), tensor_param("end"),
               param("weight", ParamKind::tensor_or_scalar), ignored_param("out")};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const DType t = a.tensor(0).dtype;
    if (!is_floating(t)) {
      return a.error(0, std::string("lerp is not implemented for ") + dtype_name(t) +
                            " tensors (floating only, as in PyTorch)");
    }
    for (size_t i : {1, 2}) {
      if (a.is_tensor(i) && a.tensor(i).dtype != t) {
        return a.error(i, std::string("expected dtype ") + dtype_name(t) + " but got dtype " +
                              dtype_name(a.tensor(i).dtype));
      }
    }
    PF_ASSIGN(Shape shape, broadcast_params(a, {0, 1, 2}));
    return std::vector<TensorType>{{t, shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Shape& shape = out[0].shape;
    const DType t = out[0].dtype;
    Operand x(a, 0, shape), e(a, 1, shape), w(a, 2, shape);
    Tensor result = Tensor::zeros(t, shape);
    for (int64_t i = 0, n = result.numel(); i < n; ++i) {
      const double s = x.real(i, t), d = e.real(i, t) - s, wi = w.real(i, t);
      result.set(i, std::fabs(wi) < 0.5 ? s + wi * d : e.real(i, t) - d * (1 - wi));
    }
    return std::vector<Tensor>{result};
  };
  op.doc = "input + weight * (end - input)";
  return op;
}

// heaviside(input, values): values where input == 0, else input > 0; both
// tensors of one dtype (PyTorch refuses mixed dtypes).
OpInfo heaviside_op() {
  BinaryOpDef d;
  d.name = "heaviside";
  d.aliases = {"torch.heaviside", "Tensor.heaviside", "Tensor.heaviside_"};
  d.rhs = "values";
  d.check = [](const ArgReader& a, const std::vector<OperandType>& operands) -> Status {
    if (!a.arg(0).is_value() || !a.arg(1).is_value()) {
      return a.error(1, "heaviside takes two tensors");
    }
    if (operands[0].dtype != operands[1].dtype) {
      return a.error(1, "heaviside is not yet implemented for tensors with different dtypes");
    }
    return ok_status();
  };
  d.bind = plain_binary(
      [](double x, double v) { return x == 0 ? v : (x > 0 ? 1.0 : 0.0); },
      [](int64_t x, int64_t v) -> Result<int64_t> { return x == 0 ? v : (x > 0 ? 1 : 0); });
  d.doc = "values where input == 0, else 1 where input > 0 and 0 elsewhere";
  return binary_op(std::move(d));
}

// float_power(input, exponent): both in float64, a float64 result.
OpInfo float_power_op() {
  OpInfo op;
  op.name = "float_power";
  op.aliases = {"torch.float_power", "Tensor.float_power"};
  op.params = {param("input", ParamKind::tensor_or_scalar),
               param("exponent", ParamKind::tensor_or_scalar), ignored_param("out")};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    if (!a.is_tensor(0) && !a.is_tensor(1)) {
      return a.error(0, "float_power needs at least one tensor operand");
    }
    PF_ASSIGN(Shape shape, broadcast_params(a, {0, 1}));
    return std::vector<TensorType>{{DType::float64, shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Shape& shape = out[0].shape;
    Operand x(a, 0, shape), y(a, 1, shape);
    Tensor result = Tensor::zeros(DType::float64, shape);
    for (int64_t i = 0, n = result.numel(); i < n; ++i) {
      result.set(i, std::pow(x.real(i, DType::float64), y.real(i, DType::float64)));
    }
    return std::vector<Tensor>{result};
  };
  op.doc = "input ** exponent computed in float64 (float64 result)";
  return op;
}

}  // namespace

void register_arithmetic_ops(OpRegistry& r) {
  r.add(lerp_op());
  r.add(heaviside_op());
  r.add(float_power_op());
  r.add(float_binary_op("atan2", {"torch.arctan2", "Tensor.arctan2"},
                        [](double a, double b) { return std::atan2(a, b); }));
  r.add(float_binary_op(
      "hypot", {}, [](double a, double b) { return std::hypot(a, b); }, true));
  r.add(float_binary_op("copysign", {}, [](double a, double b) { return std::copysign(a, b); }));
  r.add(float_binary_op("logaddexp", {}, logaddexp, true));
  r.add(float_binary_op("xlogy", {"torch.special.xlogy"}, xlogy));
  r.add(addc_op(false));
  r.add(addc_op(true));
  r.add(add_op());
  r.add(sub_op());
  r.add(rsub_op());
  r.add(mul_op());
  r.add(div_op());
  r.add(floor_divide_op());
  r.add(remainder_op());
  r.add(fmod_op());
  r.add(pow_op());
  r.add(neg_op());
  r.add(abs_op());
  r.add(reciprocal_op());
  r.add(positive_op());
}

}  // namespace pf
