// Unary math: exponentials and logarithms, roots, trigonometric and
// hyperbolic functions, sigmoid, erf, rounding, sign, square, isnan/isinf,
// nan_to_num, deg2rad / rad2deg, sinc, frac and tanhshrink. Integer and bool
// inputs of the transcendental functions compute in (and return) float32, as
// PyTorch does.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>

#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

constexpr double kPi = std::numbers::pi;

// Spellings of a unary op `name`: torch.name, Tensor.name and the in-place Tensor.name_.
std::vector<std::string> spellings(const std::string& name, std::vector<std::string> extra = {}) {
  std::vector<std::string> out = {"torch." + name, "Tensor." + name, "Tensor." + name + "_"};
  for (auto& e : extra) out.push_back(std::move(e));
  return out;
}

void add_float_fn(OpRegistry& r, const std::string& name, double (*fn)(double),
                  std::vector<std::string> extra_aliases = {}) {
  UnaryOpDef d;
  d.name = name;
  d.aliases = spellings(name, std::move(extra_aliases));
  d.dtype_rule = UnaryDtype::float_promoting;
  d.bind = plain(fn);
  r.add(unary_op(std::move(d)));
}

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}
double rsqrt(double x) {
  return 1.0 / std::sqrt(x);
}
double sign(double x) {
  return std::isnan(x) ? 0.0 : static_cast<double>((0 < x) - (x < 0));
}

// torch.round(x, decimals=d): nearbyint(x * 10^d) / 10^d, each step in the
// compute precision (d < 0 divides first).
Result<ElementFn> bind_round(const ArgReader& a, DType compute) {
  PF_ASSIGN(int64_t decimals, a.integer(1));
  if (decimals == 0) return ElementFn([](double x) { return std::nearbyint(x); });
  DType opmath = opmath_type(compute);
  double ten_pow =
      round_to_dtype(std::pow(10.0, static_cast<double>(std::llabs(decimals))), opmath);
  if (decimals > 0) {
    return ElementFn(
        [=](double x) { return std::nearbyint(round_to_dtype(x * ten_pow, opmath)) / ten_pow; });
  }
  return ElementFn(
      [=](double x) { return std::nearbyint(round_to_dtype(x / ten_pow, opmath)) * ten_pow; });
}

double dtype_max(DType t) {
  switch (t) {
    case DType::float16:
      return 65504.0;
    case DType::bfloat16:
      return 3.3895313892515355e38;
    case DType::float32:
      return std::numeric_limits<float>::max();
    default:
      return std::numeric_limits<double>::max();
  }
}

Result<ElementFn> bind_nan_to_num(const ArgReader& a, DType compute) {
  PF_ASSIGN(double nan, a.real(1));
  double posinf = dtype_max(compute), neginf = -dtype_max(compute);
  if (!a.is_none(2)) {
    PF_ASSIGN(posinf, a.real(2));
  }
  if (!a.is_none(3)) {
    PF_ASSIGN(neginf, a.real(3));
  }
  return ElementFn([=](double x) {
    if (std::isnan(x)) return nan;
    if (std::isinf(x)) return x > 0 ? posinf : neginf;
    return x;
  });
}

void add_rounding(OpRegistry& r) {
  struct Rounding {
    const char* name;
    double (*fn)(double);
  };
  for (auto [name, fn] : {Rounding{"ceil", [](double x) { return std::ceil(x); }},
                          Rounding{"floor", [](double x) { return std::floor(x); }},
                          Rounding{"trunc", [](double x) { return std::trunc(x); }}}) {
    UnaryOpDef d;
    d.name = name;
    d.aliases = spellings(name, name == std::string("trunc")
                                    ? std::vector<std::string>{"torch.fix", "Tensor.fix"}
                                    : std::vector<std::string>{});
    d.dtype_rule = UnaryDtype::same;  // integers are returned unchanged (copied)
    d.bind = plain(fn);
    d.int_fn = [](int64_t x) { return x; };
    r.add(unary_op(std::move(d)));
  }
  UnaryOpDef round;
  round.name = "round";
  round.aliases = spellings("round");
  round.extra_params = {kwarg("decimals", ParamKind::integer, Arg::make_int(0))};
  round.dtype_rule = UnaryDtype::same;
  round.bind = bind_round;
  round.int_fn = [](int64_t x) { return x; };
  round.doc = "round half to even; decimals= scales by 10^decimals first";
  r.add(unary_op(std::move(round)));
}

void add_predicates(OpRegistry& r) {
  struct Predicate {
    const char* name;
    bool (*fn)(double);
  };
  for (auto [name, fn] : {
           Predicate{"isnan", [](double x) { return std::isnan(x); }},
           Predicate{"isinf", [](double x) { return std::isinf(x); }},
           Predicate{"isfinite", [](double x) { return std::isfinite(x); }},
           Predicate{"isposinf", [](double x) { return std::isinf(x) && x > 0; }},
           Predicate{"isneginf", [](double x) { return std::isinf(x) && x < 0; }},
       }) {
    UnaryOpDef d;
    d.name = name;
    d.aliases = {std::string("torch.") + name, std::string("Tensor.") + name};
    d.dtype_rule = UnaryDtype::to_bool;
    d.bind = plain([fn = fn](double x) { return fn(x) ? 1.0 : 0.0; });
    // Integers are always finite.
    bool finite_answer = name == std::string("isfinite");
    d.int_fn = [finite_answer](int64_t) -> int64_t { return finite_answer ? 1 : 0; };
    r.add(unary_op(std::move(d)));
  }
}

// square(x) = x * x; bool squares to int64 as pow(bool, 2) does.
OpInfo square_op() {
  OpInfo op;
  op.name = "square";
  op.aliases = spellings("square");
  op.params = {tensor_param("input")};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    TensorType t = a.tensor(0);
    if (t.dtype == DType::boolean) t.dtype = DType::int64;
    return std::vector<TensorType>{t};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    for (int64_t i = 0, n = x.numel(); i < n; ++i) {
      if (is_floating(out[0].dtype)) {
        double v = x.get(i);
        y.set(i, v * v);
      } else {
        auto v = static_cast<uint64_t>(x.get_int(i));
        y.set_int(i, wrap_to_dtype(static_cast<int64_t>(v * v), out[0].dtype));
      }
    }
    return std::vector<Tensor>{y};
  };
  op.doc = "input * input";
  return op;
}

}  // namespace

void register_math_ops(OpRegistry& r) {
  add_float_fn(r, "exp", [](double x) { return std::exp(x); });
  add_float_fn(r, "exp2", [](double x) { return std::exp2(x); }, {"torch.special.exp2"});
  add_float_fn(r, "expm1", [](double x) { return std::expm1(x); }, {"torch.special.expm1"});
  add_float_fn(r, "log", [](double x) { return std::log(x); });
  add_float_fn(r, "log2", [](double x) { return std::log2(x); });
  add_float_fn(r, "log10", [](double x) { return std::log10(x); });
  add_float_fn(r, "log1p", [](double x) { return std::log1p(x); }, {"torch.special.log1p"});
  add_float_fn(r, "sqrt", [](double x) { return std::sqrt(x); });
  add_float_fn(r, "rsqrt", rsqrt);
  add_float_fn(r, "sin", [](double x) { return std::sin(x); });
  add_float_fn(r, "cos", [](double x) { return std::cos(x); });
  add_float_fn(r, "tan", [](double x) { return std::tan(x); });
  add_float_fn(r, "asin", [](double x) { return std::asin(x); }, {"torch.arcsin", "Tensor.arcsin"});
  add_float_fn(r, "acos", [](double x) { return std::acos(x); }, {"torch.arccos", "Tensor.arccos"});
  add_float_fn(r, "atan", [](double x) { return std::atan(x); }, {"torch.arctan", "Tensor.arctan"});
  add_float_fn(r, "sinh", [](double x) { return std::sinh(x); });
  add_float_fn(r, "cosh", [](double x) { return std::cosh(x); });
  add_float_fn(r, "tanh", [](double x) { return std::tanh(x); }, {"torch.nn.functional.tanh"});
  add_float_fn(r, "sigmoid", sigmoid,
               {"torch.nn.functional.sigmoid", "torch.special.expit", "torch.sigmoid_"});
  add_float_fn(r, "erf", [](double x) { return std::erf(x); }, {"torch.special.erf"});
  add_float_fn(r, "erfc", [](double x) { return std::erfc(x); }, {"torch.special.erfc"});
  add_float_fn(r, "deg2rad", [](double x) { return x * (kPi / 180.0); });
  add_float_fn(r, "rad2deg", [](double x) { return x * (180.0 / kPi); });
  add_float_fn(r, "sinc", [](double x) { return x == 0 ? 1.0 : std::sin(kPi * x) / (kPi * x); },
               {"torch.special.sinc"});
  add_float_fn(r, "tanhshrink", [](double x) { return x - std::tanh(x); },
               {"torch.nn.functional.tanhshrink"});
  // logit(x, eps=None): log(x / (1 - x)), x first clamped to [eps, 1 - eps]
  // when eps is given (PyTorch's kernel: the bounds in the compute dtype).
  UnaryOpDef logit;
  logit.name = "logit";
  logit.aliases = spellings("logit", {"torch.special.logit"});
  logit.extra_params = {param("eps", ParamKind::optional_real, Arg::make_none())};
  logit.dtype_rule = UnaryDtype::float_promoting;
  logit.bind = [](const ArgReader& a, DType compute) -> Result<ElementFn> {
    std::optional<double> eps;  // a negative eps clamps nothing, as in PyTorch
    if (!a.is_none(1)) {
      PF_ASSIGN(double e, a.real(1));
      if (e >= 0) eps = round_to_dtype(e, opmath_type(compute));
    }
    const double lo = eps.value_or(0),
                 hi = eps ? round_to_dtype(1 - *eps, opmath_type(compute)) : 1;
    return ElementFn([eps, lo, hi](double x) {
      if (eps && !std::isnan(x)) x = std::min(std::max(x, lo), hi);
      return std::log(x / (1 - x));
    });
  };
  logit.doc = "log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps is given";
  r.add(unary_op(std::move(logit)));
  UnaryOpDef frac;
  frac.name = "frac";
  frac.aliases = spellings("frac");
  frac.dtype_rule = UnaryDtype::floating;  // PyTorch has no integer frac
  frac.bind = plain([](double x) { return x - std::trunc(x); });
  r.add(unary_op(std::move(frac)));
  add_rounding(r);
  add_predicates(r);
  r.add(square_op());

  UnaryOpDef sgn;
  sgn.name = "sign";
  sgn.aliases = spellings("sign", {"torch.sgn", "Tensor.sgn"});
  sgn.dtype_rule = UnaryDtype::same_with_bool;
  sgn.bind = plain(sign);
  sgn.int_fn = [](int64_t x) -> int64_t { return (0 < x) - (x < 0); };
  r.add(unary_op(std::move(sgn)));

  UnaryOpDef n2n;
  n2n.name = "nan_to_num";
  n2n.aliases = spellings("nan_to_num");
  n2n.extra_params = {param("nan", ParamKind::real, Arg::make_real(0.0)),
                      param("posinf", ParamKind::optional_real, Arg::make_none()),
                      param("neginf", ParamKind::optional_real, Arg::make_none())};
  n2n.dtype_rule = UnaryDtype::same_with_bool;
  n2n.bind = bind_nan_to_num;
  n2n.int_fn = [](int64_t x) { return x; };
  n2n.doc = "replaces NaN, +inf, -inf (default: 0, the dtype's max and lowest)";
  r.add(unary_op(std::move(n2n)));
}

}  // namespace pf
