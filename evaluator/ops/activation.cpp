// Pointwise activations (relu, gelu in both approximations, silu, hard*,
// leaky_relu, elu/selu/celu, softplus, mish, logsigmoid, softsign, threshold),
// plus glu and prelu. Formulas follow PyTorch's kernels; the CPU reference
// evaluates them in float64 and rounds once to the input dtype.
#include <cmath>

#include "evaluator/ops/elementwise.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

constexpr double kSqrt1_2 = 0.70710678118654752440;
constexpr double kSqrt2OverPi = 0.79788456080286535588;
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

double softplus(double x, double beta, double threshold) {
  return x * beta > threshold ? x : std::log1p(std::exp(x * beta)) / beta;
}

UnaryOpDef act(std::string name, std::vector<std::string> aliases, UnaryBinder bind,
               std::vector<ParamDef> extra = {}) {
  UnaryOpDef d;
  d.name = std::move(name);
  d.aliases = std::move(aliases);
  d.bind = std::move(bind);
  d.extra_params = std::move(extra);
  return d;
}

Result<ElementFn> bind_gelu(const ArgReader& a, DType) {
  PF_TRY(a.string(1));  // checks the kind; the literal itself is read in place
  const std::string& approximate = a.arg(1).s;
  if (approximate == "none") {
    return ElementFn([](double x) { return 0.5 * x * (1.0 + std::erf(x * kSqrt1_2)); });
  }
  if (approximate == "tanh") {
    return ElementFn([](double x) {
      return 0.5 * x * (1.0 + std::tanh(kSqrt2OverPi * (x + 0.044715 * x * x * x)));
    });
  }
  return a.error(1, "expected 'none' or 'tanh', got '" + approximate + "'");
}

// hardtanh(x, min_val, max_val); relu6 is hardtanh(x, 0, 6).
Result<ElementFn> bind_hardtanh(const ArgReader& a, DType) {
  PF_ASSIGN(double lo, a.real(1));
  PF_ASSIGN(double hi, a.real(2));
  return ElementFn(
      [lo, hi](double x) { return std::isnan(x) ? x : std::min(std::max(x, lo), hi); });
}

Result<ElementFn> bind_leaky_relu(const ArgReader& a, DType) {
  PF_ASSIGN(double slope, a.real(1));
  return ElementFn([slope](double x) { return x > 0 ? x : x * slope; });
}

Result<ElementFn> bind_elu(const ArgReader& a, DType) {
  PF_ASSIGN(double alpha, a.real(1));
  return ElementFn(
      [alpha](double x) { return x > 0 || std::isnan(x) ? x : alpha * std::expm1(x); });
}

Result<ElementFn> bind_celu(const ArgReader& a, DType) {
  PF_ASSIGN(double alpha, a.real(1));
  if (alpha == 0) return a.error(1, "ZeroDivisionError: alpha cannot be 0 for celu");
  return ElementFn(
      [alpha](double x) { return x > 0 || std::isnan(x) ? x : alpha * std::expm1(x / alpha); });
}

Result<ElementFn> bind_softplus(const ArgReader& a, DType) {
  PF_ASSIGN(double beta, a.real(1));
  PF_ASSIGN(double threshold, a.real(2));
  return ElementFn([beta, threshold](double x) { return softplus(x, beta, threshold); });
}

Result<ElementFn> bind_threshold(const ArgReader& a, DType) {
  PF_ASSIGN(double threshold, a.real(1));
  PF_ASSIGN(double value, a.real(2));
  return ElementFn([threshold, value](double x) { return x <= threshold ? value : x; });
}

ParamDef real_param(const char* name, double value) {
  return param(name, ParamKind::real, Arg::make_real(value));
}

// glu(x, dim): first half * sigmoid(second half) along dim.
OpInfo glu_op() {
  OpInfo op;
  op.name = "glu";
  op.aliases = {"torch.nn.functional.glu", "torch._C._nn.glu"};
  op.params = {tensor_param("input"), param("dim", ParamKind::integer, Arg::make_int(-1))};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    TensorType t = a.tensor(0);
    if (!is_floating(t.dtype)) {
      return a.error(0, std::string("expected a floating tensor, got ") + dtype_name(t.dtype));
    }
    if (t.shape.empty()) return a.error(0, "glu does not support 0-dimensional tensors");
    PF_ASSIGN(int64_t raw_dim, a.integer(1));
    PF_ASSIGN(int64_t dim, normalize_dim(raw_dim, static_cast<int64_t>(t.shape.size()), "glu"));
    if (t.shape[dim] % 2 != 0) {
      return a.error(1, "halving dimension must be even, but dimension " + std::to_string(dim) +
                            " is size " + std::to_string(t.shape[dim]));
    }
    t.shape[dim] /= 2;
    return std::vector<TensorType>{t};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(int64_t raw_dim, a.integer(1));
    PF_ASSIGN(int64_t dim, normalize_dim(raw_dim, x.dim(), "glu"));
    const Shape& shape = out[0].shape;
    int64_t half = shape[dim];
    // Two views of the halves (no copies): the second starts `half` along dim.
    Tensor first = Tensor::view_of(x, shape, x.strides(), x.offset());
    Tensor second = Tensor::view_of(x, shape, x.strides(), x.offset() + half * x.strides()[dim]);
    Tensor y = Tensor::zeros(out[0].dtype, shape);
    for (int64_t i = 0, n = y.numel(); i < n; ++i) {
      y.set(i, first.get(i) / (1.0 + std::exp(-second.get(i))));
    }
    return std::vector<Tensor>{y};
  };
  op.doc = "gated linear unit: a * sigmoid(b) for the two halves of dim";
  return op;
}

// prelu(x, weight): x if x >= 0 else weight[c] * x, c the channel (dim 1).
OpInfo prelu_op() {
  OpInfo op;
  op.name = "prelu";
  op.aliases = {"torch.prelu", "Tensor.prelu", "torch.nn.functional.prelu"};
  op.params = {tensor_param("input"), tensor_param("weight")};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    const TensorType& w = a.tensor(1);
    if (!is_floating(x.dtype)) {
      return a.error(0, std::string("expected a floating tensor, got ") + dtype_name(x.dtype));
    }
    int64_t channels = x.shape.size() >= 2 ? x.shape[1] : 1;
    int64_t wn = shape_numel(w.shape);
    if (w.shape.size() > 1 || (wn != 1 && wn != channels)) {
      return a.error(1, "expected 1 or " + std::to_string(channels) +
                            " weights (the input's channels), got shape " + shape_str(w.shape));
    }
    if (w.dtype != x.dtype) {
      return a.error(1, std::string("weight dtype ") + dtype_name(w.dtype) +
                            " must match the input's " + dtype_name(x.dtype));
    }
    return std::vector<TensorType>{x};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    std::vector<double> w = a.tensor(1).to_doubles();
    const Shape& shape = x.shape();
    int64_t inner = 1;
    for (size_t d = 2; d < shape.size(); ++d) inner *= shape[d];
    int64_t channels = shape.size() >= 2 ? shape[1] : 1;
    Tensor y = Tensor::zeros(out[0].dtype, shape);
    for (int64_t i = 0, n = y.numel(); i < n; ++i) {
      double v = x.get(i);
      double slope = w.size() == 1 ? w[0] : w[static_cast<size_t>((i / inner) % channels)];
      y.set(i, v >= 0 ? v : slope * v);
    }
    return std::vector<Tensor>{y};
  };
  op.doc = "parametric relu with one slope per channel (dim 1) or one shared slope";
  return op;
}

}  // namespace

void register_activation_ops(OpRegistry& r) {
  UnaryOpDef relu =
      act("relu",
          {"torch.relu", "torch.relu_", "Tensor.relu", "Tensor.relu_", "torch.nn.functional.relu",
           "torch.nn.functional.relu_"},
          plain([](double x) { return x > 0 || std::isnan(x) ? x : 0.0; }), {inplace_param()});
  relu.dtype_rule = UnaryDtype::same;
  relu.int_fn = [](int64_t x) -> int64_t { return x > 0 ? x : 0; };
  r.add(unary_op(std::move(relu)));

  UnaryOpDef relu6 =
      act("relu6", {"torch.nn.functional.relu6", "torch._C._nn.relu6", "torch._C._nn.relu6_"},
          plain([](double x) { return std::isnan(x) ? x : std::min(std::max(x, 0.0), 6.0); }),
          {inplace_param()});
  relu6.dtype_rule = UnaryDtype::same;
  relu6.int_fn = [](int64_t x) -> int64_t { return std::min<int64_t>(std::max<int64_t>(x, 0), 6); };
  r.add(unary_op(std::move(relu6)));

  UnaryOpDef hardtanh = act(
      "hardtanh",
      {"torch.nn.functional.hardtanh", "torch.nn.functional.hardtanh_", "torch._C._nn.hardtanh",
       "torch._C._nn.hardtanh_"},
      bind_hardtanh, {real_param("min_val", -1.0), real_param("max_val", 1.0), inplace_param()});
  hardtanh.dtype_rule = UnaryDtype::same;
  r.add(unary_op(std::move(hardtanh)));

  r.add(unary_op(
      act("gelu", {"torch.nn.functional.gelu", "torch._C._nn.gelu", "torch._C._nn.gelu_"},
          bind_gelu, {kwarg("approximate", ParamKind::string, Arg::make_string("none"))})));
  r.add(
      unary_op(act("silu", {"torch.nn.functional.silu", "torch._C._nn.silu", "torch._C._nn.silu_"},
                   plain([](double x) { return x / (1.0 + std::exp(-x)); }), {inplace_param()})));
  r.add(unary_op(
      act("hardswish",
          {"torch.nn.functional.hardswish", "torch._C._nn.hardswish", "torch._C._nn.hardswish_"},
          plain([](double x) { return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0; }),
          {inplace_param()})));
  r.add(unary_op(act(
      "hardsigmoid",
      {"torch.nn.functional.hardsigmoid", "torch._C._nn.hardsigmoid", "torch._C._nn.hardsigmoid_"},
      plain(
          [](double x) { return std::isnan(x) ? x : std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0; }),
      {inplace_param()})));
  r.add(unary_op(act("leaky_relu",
                     {"torch.nn.functional.leaky_relu", "torch.nn.functional.leaky_relu_",
                      "torch._C._nn.leaky_relu", "torch._C._nn.leaky_relu_"},
                     bind_leaky_relu, {real_param("negative_slope", 0.01), inplace_param()})));
  r.add(unary_op(act("elu",
                     {"torch.nn.functional.elu", "torch.nn.functional.elu_", "torch._C._nn.elu",
                      "torch._C._nn.elu_"},
                     bind_elu, {real_param("alpha", 1.0), inplace_param()})));
  r.add(unary_op(
      act("selu",
          {"torch.selu", "torch.selu_", "torch.nn.functional.selu", "torch.nn.functional.selu_"},
          plain([](double x) {
            return kSeluScale * (x > 0 || std::isnan(x) ? x : kSeluAlpha * std::expm1(x));
          }),
          {inplace_param()})));
  r.add(unary_op(
      act("celu",
          {"torch.celu", "torch.celu_", "torch.nn.functional.celu", "torch.nn.functional.celu_"},
          bind_celu, {real_param("alpha", 1.0), inplace_param()})));
  r.add(unary_op(act("softplus", {"torch.nn.functional.softplus", "torch._C._nn.softplus"},
                     bind_softplus, {real_param("beta", 1.0), real_param("threshold", 20.0)})));
  r.add(unary_op(act(
      "mish", {"torch.nn.functional.mish", "torch._C._nn.mish", "torch._C._nn.mish_"},
      plain([](double x) { return x * std::tanh(softplus(x, 1.0, 20.0)); }), {inplace_param()})));
  r.add(unary_op(
      act("logsigmoid", {"torch.nn.functional.logsigmoid", "torch._C._nn.log_sigmoid"},
          plain([](double x) { return std::min(x, 0.0) - std::log1p(std::exp(-std::fabs(x))); }))));
  r.add(unary_op(act("softsign", {"torch.nn.functional.softsign"},
                     plain([](double x) { return x / (1.0 + std::fabs(x)); }))));
  r.add(unary_op(act(
      "threshold",
      {"torch.threshold", "torch.threshold_", "torch.nn.functional.threshold",
       "torch.nn.functional.threshold_"},
      bind_threshold,
      {param("threshold", ParamKind::real), param("value", ParamKind::real), inplace_param()})));
  r.add(glu_op());
  r.add(prelu_op());
}

}  // namespace pf
