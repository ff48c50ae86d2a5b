// Losses of torch.nn.functional: mse_loss, l1_loss, smooth_l1_loss, huber_loss, kl_div,
// binary_cross_entropy(_with_logits), nll_loss and cross_entropy, every reduction (and the
// deprecated size_average/reduce pair). Computed in float64 with PyTorch 1.13's formulas,
// rounded once to the output dtype. Class-index targets are data: one out of range is an
// error here, as in PyTorch ("Target 5 is out of bounds.").
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "common/strings.h"
#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/loss_reduction.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

using P = LossReductionParams;

ParamDef legacy_param(std::string name) {
  return param(std::move(name), ParamKind::optional_scalar, Arg::make_none());
}
ParamDef reduction_param() {
  return param("reduction", ParamKind::string, Arg::make_string("mean"));
}

Status expect_floating(const ArgReader& a, size_t i, DType t) {
  if (is_floating(t)) return ok_status();
  return a.error(i, std::string("expected a floating tensor, got ") + dtype_name(t));
}

// The reduced output: every element ('none'), or their sum / mean / sum over `batch`.
Tensor reduce_loss(DType dtype, const Shape& shape, const std::vector<double>& v, LossReduction r,
                   double batch) {
  if (r == LossReduction::none) return Tensor::from_doubles(dtype, shape, v);
  double sum = 0;
  for (double e : v) sum += e;
  if (r == LossReduction::mean) sum /= static_cast<double>(v.size());
  if (r == LossReduction::batchmean) sum /= batch;
  return Tensor::from_doubles(dtype, {}, {sum});
}

Shape loss_shape(LossReduction r, const Shape& elementwise) {
  return r == LossReduction::none ? elementwise : Shape{};
}

template <typename T>
Result<Shape> broadcast_operands(const BoundArgs<T>& a, size_t i, size_t j) {
  auto s = broadcast_shapes(layout::shape_of(a.tensor(i)), layout::shape_of(a.tensor(j)));
  if (!s.ok()) return a.error(j, "does not broadcast with the input: " + s.error().message);
  return *s;
}

// An optional tensor argument (weight, pos_weight) must broadcast to `shape`
// without growing it: PyTorch multiplies it into the loss in place.
template <typename T>
Status broadcasts_into(const BoundArgs<T>& a, size_t i, const Shape& shape) {
  if (a.is_none(i)) return ok_status();
  auto s = broadcast_shapes(shape, layout::shape_of(a.tensor(i)));
  if (!s.ok() || *s != shape)
    return a.error(i, "of shape " + shape_str(layout::shape_of(a.tensor(i))) +
                          " does not broadcast to the loss's shape " + shape_str(shape));
  return ok_status();
}

std::vector<double> values_as(const Tensor& t, const Shape& shape) {
  return layout::broadcast_view(t, shape).to_doubles();
}

// ---- pointwise losses: loss(x, t) per element of the broadcast shape -------------------

using PairFn = std::function<double(double x, double t)>;

struct PointwiseLossDef {
  std::string name;
  std::vector<std::string> aliases;
  std::vector<ParamDef> tail;  // after input, target
  P reduction;
  //! Reads the literal parameters (beta, delta, log_target) once; runs at
  //! type inference too, so bad values fail early.
  std::function<Result<PairFn>(const ArgReader&)> bind;
  std::string doc;
};

OpInfo pointwise_loss(const PointwiseLossDef& def) {
  OpInfo op;
  op.name = def.name;
  op.aliases = def.aliases;
  op.params = {tensor_param("input"), tensor_param("target")};
  for (auto& p : def.tail) op.params.push_back(p);
  op.doc = def.doc;
  const P red = def.reduction;
  const auto bind = def.bind;
  op.infer = [red, bind](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const DType t = result_type({{a.tensor(0).dtype}, {a.tensor(1).dtype}});
    PF_TRY(expect_floating(a, 0, t));
    PF_ASSIGN(Shape s, broadcast_operands(a, 0, 1));
    PF_ASSIGN(LossReduction r, read_loss_reduction(a, red));
    PF_TRY(bind(a));
    return std::vector<TensorType>{{t, loss_shape(r, s)}};
  };
  op.cpu = [red, bind](const BoundArgs<Tensor>& a,
                       const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(Shape s, broadcast_operands(a, 0, 1));
    PF_ASSIGN(LossReduction r, read_loss_reduction(a, red));
    PF_ASSIGN(PairFn fn, bind(a));
    const std::vector<double> x = values_as(a.tensor(0), s), t = values_as(a.tensor(1), s);
    std::vector<double> v(x.size());
    for (size_t k = 0; k < v.size(); ++k) v[k] = fn(x[k], t[k]);
    // kl_div's batchmean divides by the input's first size (F.kl_div).
    const Shape& in = a.tensor(0).shape();
    const double batch = in.empty() ? 1.0 : static_cast<double>(in[0]);
    return std::vector<Tensor>{reduce_loss(out[0].dtype, s, v, r, batch)};
  };
  return op;
}

std::function<Result<PairFn>(const ArgReader&)> fixed(const PairFn& fn) {
  return [fn](const ArgReader&) -> Result<PairFn> { return fn; };
}

OpInfo mse_loss_op() {
  return pointwise_loss({"mse_loss",
                         {"torch.nn.functional.mse_loss"},
                         {legacy_param("size_average"), legacy_param("reduce"), reduction_param()},
                         {2, 3, 4, false},
                         fixed([](double x, double t) { return (x - t) * (x - t); }),
                         "(input - target)^2, reduced"});
}

OpInfo l1_loss_op() {
  return pointwise_loss({"l1_loss",
                         {"torch.nn.functional.l1_loss"},
                         {legacy_param("size_average"), legacy_param("reduce"), reduction_param()},
                         {2, 3, 4, false},
                         fixed([](double x, double t) { return std::fabs(x - t); }),
                         "|input - target|, reduced"});
}

// smooth_l1_loss: z = |x - t|; z < beta ? 0.5 z^2 / beta : z - 0.5 beta (beta 0 is l1).
OpInfo smooth_l1_loss_op() {
  return pointwise_loss({"smooth_l1_loss",
                         {"torch.nn.functional.smooth_l1_loss"},
                         {legacy_param("size_average"), legacy_param("reduce"), reduction_param(),
                          param("beta", ParamKind::real, Arg::make_real(1.0))},
                         {2, 3, 4, false},
                         [](const ArgReader& a) -> Result<PairFn> {
                           PF_ASSIGN(double beta, a.real(5));
                           if (beta < 0)
                             return a.error(
                                 5, "smooth_l1_loss does not support negative values for beta");
                           return PairFn([beta](double x, double t) {
                             const double z = std::fabs(x - t);
                             return z < beta ? 0.5 * z * z / beta : z - 0.5 * beta;
                           });
                         },
                         "|input - target| quadratic below beta, linear above, reduced"});
}

// huber_loss: z < delta ? 0.5 z^2 : delta (z - 0.5 delta).
OpInfo huber_loss_op() {
  return pointwise_loss({"huber_loss",
                         {"torch.nn.functional.huber_loss"},
                         {reduction_param(), param("delta", ParamKind::real, Arg::make_real(1.0))},
                         {P::kNoParam, P::kNoParam, 2, false},
                         [](const ArgReader& a) -> Result<PairFn> {
                           PF_ASSIGN(double delta, a.real(3));
                           if (delta <= 0)
                             return a.error(3,
                                            "huber_loss does not support non-positive values "
                                            "for delta.");
                           return PairFn([delta](double x, double t) {
                             const double z = std::fabs(x - t);
                             return z < delta ? 0.5 * z * z : delta * (z - 0.5 * delta);
                           });
                         },
                         "Huber loss of input - target (delta), reduced"});
}

// kl_div as PyTorch 1.13: log_target ? exp(t) (t - x) : xlogy(t, t) - t x.
OpInfo kl_div_op() {
  return pointwise_loss(
      {"kl_div",
       {"torch.nn.functional.kl_div"},
       {legacy_param("size_average"), legacy_param("reduce"), reduction_param(),
        param("log_target", ParamKind::boolean, Arg::make_bool(false))},
       {2, 3, 4, true},
       [](const ArgReader& a) -> Result<PairFn> {
         PF_ASSIGN(bool log_target, a.boolean(5));
         if (log_target) return PairFn([](double x, double t) { return std::exp(t) * (t - x); });
         return PairFn([](double x, double t) {
           const double xlogy = std::isnan(t) ? t : (t == 0 ? 0.0 : t * std::log(t));
           return xlogy - t * x;
         });
       },
       "pointwise KL divergence of target from input (log-probabilities), reduced"});
}

// ---- binary cross entropy ----------------------------------------------------------------

// Input and target of one shape (F.binary_cross_entropy raises otherwise);
// the dtype of every tensor operand, floating.
template <typename T>
Result<DType> binary_loss_dtype(const BoundArgs<T>& a, const std::vector<size_t>& optional) {
  const Shape& x = layout::shape_of(a.tensor(0));
  const Shape& t = layout::shape_of(a.tensor(1));
  if (x != t)
    return a.error(
        1, "target size " + shape_str(t) + " must be the same as input size " + shape_str(x));
  std::vector<OperandType> ops = {{layout::dtype_of(a.tensor(0))}, {layout::dtype_of(a.tensor(1))}};
  for (size_t i : optional) {
    PF_TRY(broadcasts_into(a, i, x));
    if (!a.is_none(i)) ops.push_back({layout::dtype_of(a.tensor(i))});
  }
  const DType d = result_type(ops);
  PF_TRY(expect_floating(a, 0, d));
  return d;
}

// F.binary_cross_entropy: (t - 1) max(log(1 - x), -100) - t max(log(x), -100), times weight.
OpInfo binary_cross_entropy_op() {
  OpInfo op;
  op.name = "binary_cross_entropy";
  op.aliases = {"torch.nn.functional.binary_cross_entropy"};
  op.params = {tensor_param("input"),
               tensor_param("target"),
               param("weight", ParamKind::optional_tensor, Arg::make_none()),
               legacy_param("size_average"),
               legacy_param("reduce"),
               reduction_param()};
  op.doc = "binary cross entropy of probabilities, log clamped at -100, reduced";
  static constexpr P kReduction{3, 4, 5, false};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(DType d, binary_loss_dtype(a, {2}));
    PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
    return std::vector<TensorType>{{d, loss_shape(r, a.tensor(0).shape)}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
    const Shape& s = a.tensor(0).shape();
    const std::vector<double> x = values_as(a.tensor(0), s), t = values_as(a.tensor(1), s);
    std::vector<double> w(x.size(), 1.0);
    if (!a.is_none(2)) w = values_as(a.tensor(2), s);
    std::vector<double> v(x.size());
    for (size_t k = 0; k < v.size(); ++k) {
      if (!(x[k] >= 0 && x[k] <= 1))
        return a.error(0, "all elements of input should be between 0 and 1");
      const double l1 = std::max(std::log(1 - x[k]), -100.0);
      const double l0 = std::max(std::log(x[k]), -100.0);
      v[k] = ((t[k] - 1) * l1 - t[k] * l0) * w[k];
    }
    return std::vector<Tensor>{reduce_loss(out[0].dtype, s, v, r, 1)};
  };
  return op;
}

// F.binary_cross_entropy_with_logits in PyTorch 1.13's form: with m = max(-x, 0),
// (1 - t) x + lw (log(exp(-m) + exp(-x - m)) + m), lw = 1 + (pos_weight - 1) t; times weight.
OpInfo binary_cross_entropy_with_logits_op() {
  OpInfo op;
  op.name = "binary_cross_entropy_with_logits";
  op.aliases = {"torch.nn.functional.binary_cross_entropy_with_logits"};
  op.params = {tensor_param("input"),
               tensor_param("target"),
               param("weight", ParamKind::optional_tensor, Arg::make_none()),
               legacy_param("size_average"),
               legacy_param("reduce"),
               reduction_param(),
               param("pos_weight", ParamKind::optional_tensor, Arg::make_none())};
  op.doc = "binary cross entropy of logits (weight, pos_weight), reduced";
  static constexpr P kReduction{3, 4, 5, false};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(DType d, binary_loss_dtype(a, {2, 6}));
    PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
    return std::vector<TensorType>{{d, loss_shape(r, a.tensor(0).shape)}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
    const Shape& s = a.tensor(0).shape();
    const std::vector<double> x = values_as(a.tensor(0), s), t = values_as(a.tensor(1), s);
    std::vector<double> w(x.size(), 1.0), pw(x.size(), 1.0);
    if (!a.is_none(2)) w = values_as(a.tensor(2), s);
    if (!a.is_none(6)) pw = values_as(a.tensor(6), s);
    std::vector<double> v(x.size());
    for (size_t k = 0; k < v.size(); ++k) {
      const double m = std::max(-x[k], 0.0);
      const double lw = (pw[k] - 1) * t[k] + 1;
      v[k] = ((1 - t[k]) * x[k] + lw * (std::log(std::exp(-m) + std::exp(-x[k] - m)) + m)) * w[k];
    }
    return std::vector<Tensor>{reduce_loss(out[0].dtype, s, v, r, 1)};
  };
  return op;
}

// ---- class losses: input [C] or [N, C, d1, ...], class dim 1 (0 for 1-d input) --------

// Row-major geometry of a class loss: element (n, c, d) of the input sits at
// (n * classes + c) * inner + d; the target and the 'none' output are [N, d...].
struct ClassGeometry {
  int64_t batch = 1, classes = 1, inner = 1;
  Shape target_shape;  // input's shape without the class dim
};

ClassGeometry class_geometry(const Shape& in) {
  ClassGeometry g;
  const size_t cdim = in.size() == 1 ? 0 : 1;
  g.classes = in[cdim];
  for (size_t i = 0; i < in.size(); ++i) {
    if (i < cdim) g.batch *= in[i];
    if (i > cdim) g.inner *= in[i];
    if (i != cdim) g.target_shape.push_back(in[i]);
  }
  return g;
}

// Input floating with at least one dim; weight (if given) 1-d of `classes`
// elements and the input's dtype, as PyTorch checks them.
template <typename T>
Result<ClassGeometry> check_class_input(const BoundArgs<T>& a) {
  const Shape& in = layout::shape_of(a.tensor(0));
  const DType d = layout::dtype_of(a.tensor(0));
  PF_TRY(expect_floating(a, 0, d));
  if (in.empty()) return a.error(0, "expected an input with at least 1 dimension, got 0");
  ClassGeometry g = class_geometry(in);
  if (!a.is_none(2)) {
    const Shape& w = layout::shape_of(a.tensor(2));
    if (w.size() != 1 || w[0] != g.classes)
      return a.error(2, "weight tensor should be defined either for all " +
                            std::to_string(g.classes) + " classes or no classes but got weight " +
                            "tensor of shape: " + shape_str(w));
    if (layout::dtype_of(a.tensor(2)) != d)
      return a.error(2, std::string("expected scalar type ") + dtype_name(d) + " but found " +
                            dtype_name(layout::dtype_of(a.tensor(2))));
  }
  return g;
}

template <typename T>
Status check_index_target(const BoundArgs<T>& a, const ClassGeometry& g) {
  const DType td = layout::dtype_of(a.tensor(1));
  if (td != DType::int64)
    return a.error(1, std::string("expected scalar type Long but found ") + dtype_name(td));
  const Shape& ts = layout::shape_of(a.tensor(1));
  if (ts != g.target_shape)
    return a.error(
        1, "expected target of shape " + shape_str(g.target_shape) + ", got " + shape_str(ts));
  return ok_status();
}

// -w[t] x[n, t, d] per target element (0 where t == ignore_index), and the
// weights w[t] of the elements not ignored: what nll_loss sums and divides by.
struct NllTerms {
  std::vector<double> loss, weight;
};

Result<NllTerms> nll_terms(const ArgReader& a, const std::vector<double>& x, const Tensor& target,
                           const Tensor* weight, const ClassGeometry& g, int64_t ignore_index) {
  const Tensor t = target.contiguous_copy();
  NllTerms terms;
  terms.loss.assign(static_cast<size_t>(t.numel()), 0.0);
  terms.weight.assign(terms.loss.size(), 0.0);
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t d = 0; d < g.inner; ++d) {
      const int64_t k = n * g.inner + d;
      const int64_t c = t.get_int(k);
      if (c == ignore_index) continue;
      if (c < 0 || c >= g.classes)
        return a.error(1, "Target " + std::to_string(c) + " is out of bounds.");
      const double w = weight != nullptr ? weight->get(c) : 1.0;
      terms.weight[k] = w;
      terms.loss[k] = -w * x[(n * g.classes + c) * g.inner + d];
    }
  }
  return terms;
}

double sum_of(const std::vector<double>& v) {
  double s = 0;
  for (double e : v) s += e;
  return s;
}

// nll_loss's reduction: 'mean' divides by the weights of the elements not ignored.
Tensor reduce_nll(DType dtype, const Shape& shape, const NllTerms& t, LossReduction r) {
  if (r == LossReduction::none) return Tensor::from_doubles(dtype, shape, t.loss);
  const double s = sum_of(t.loss);
  return Tensor::from_doubles(dtype, {}, {r == LossReduction::mean ? s / sum_of(t.weight) : s});
}

OpInfo nll_loss_op() {
  OpInfo op;
  op.name = "nll_loss";
  op.aliases = {"torch.nn.functional.nll_loss"};
  op.params = {tensor_param("input"),
               tensor_param("target"),
               param("weight", ParamKind::optional_tensor, Arg::make_none()),
               legacy_param("size_average"),
               param("ignore_index", ParamKind::integer, Arg::make_int(-100)),
               legacy_param("reduce"),
               reduction_param()};
  op.doc = "negative log likelihood of class-index targets (weight, ignore_index), reduced";
  static constexpr P kReduction{3, 5, 6, false};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(ClassGeometry g, check_class_input(a));
    PF_TRY(check_index_target(a, g));
    PF_TRY(a.integer(4));
    PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
    return std::vector<TensorType>{{a.tensor(0).dtype, loss_shape(r, g.target_shape)}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(ClassGeometry g, check_class_input(a));
    PF_ASSIGN(int64_t ignore_index, a.integer(4));
    PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
    PF_ASSIGN(NllTerms t, nll_terms(a, a.tensor(0).to_doubles(), a.tensor(1), a.optional_tensor(2),
                                    g, ignore_index));
    return std::vector<Tensor>{reduce_nll(out[0].dtype, g.target_shape, t, r)};
  };
  return op;
}

// log_softmax over the class dim, row-major like the input.
std::vector<double> log_softmax_classes(const std::vector<double>& x, const ClassGeometry& g) {
  std::vector<double> y(x.size());
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t d = 0; d < g.inner; ++d) {
      const auto at = [&](int64_t c) {
        return static_cast<size_t>((n * g.classes + c) * g.inner + d);
      };
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t c = 0; c < g.classes; ++c) m = std::max(m, x[at(c)]);
      double s = 0;
      for (int64_t c = 0; c < g.classes; ++c) s += std::exp(x[at(c)] - m);
      const double lse = m + std::log(s);
      for (int64_t c = 0; c < g.classes; ++c) y[at(c)] = x[at(c)] - lse;
    }
  }
  return y;
}

// Class-index targets: nll of log_softmax; with label smoothing ls, PyTorch 1.13 adds
// ls / C times the (weighted) sum of -log_softmax over classes, reduced as nll is.
Result<Tensor> cross_entropy_indices(const BoundArgs<Tensor>& a, const ClassGeometry& g,
                                     const std::vector<double>& lsm, LossReduction r, DType dtype) {
  PF_ASSIGN(int64_t ignore_index, a.integer(4));
  PF_ASSIGN(double ls, a.real(7));
  const Tensor* weight = a.optional_tensor(2);
  PF_ASSIGN(NllTerms nll, nll_terms(a, lsm, a.tensor(1), weight, g, ignore_index));
  if (ls == 0) return reduce_nll(dtype, g.target_shape, nll, r);
  const Tensor t = a.tensor(1).contiguous_copy();
  std::vector<double> smooth(nll.loss.size(), 0.0);
  double valid = 0;
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t d = 0; d < g.inner; ++d) {
      const int64_t k = n * g.inner + d;
      if (t.get_int(k) == ignore_index) continue;
      valid += 1;
      double s = 0;
      for (int64_t c = 0; c < g.classes; ++c)
        s -= lsm[(n * g.classes + c) * g.inner + d] * (weight != nullptr ? weight->get(c) : 1.0);
      smooth[k] = s;
    }
  }
  const double c = static_cast<double>(g.classes);
  if (r == LossReduction::none) {
    std::vector<double> v(smooth.size());
    for (size_t k = 0; k < v.size(); ++k) v[k] = (1 - ls) * nll.loss[k] + ls / c * smooth[k];
    return Tensor::from_doubles(dtype, g.target_shape, v);
  }
  double nll_r = sum_of(nll.loss), smooth_r = sum_of(smooth);
  if (r == LossReduction::mean) {
    nll_r /= sum_of(nll.weight);
    smooth_r /= weight != nullptr ? sum_of(nll.weight) : valid;
  }
  return Tensor::from_doubles(dtype, {}, {(1 - ls) * nll_r + ls / c * smooth_r});
}

// Probability targets (the input's shape): -sum over classes of log_softmax * t' * w with
// t' = t (1 - ls) + ls / C; 'mean' divides by the number of rows (numel / C).
Tensor cross_entropy_probs(const BoundArgs<Tensor>& a, const ClassGeometry& g,
                           const std::vector<double>& lsm, LossReduction r, DType dtype,
                           double ls) {
  const std::vector<double> t = a.tensor(1).to_doubles();
  const Tensor* weight = a.optional_tensor(2);
  const double c = static_cast<double>(g.classes);
  std::vector<double> rows(static_cast<size_t>(g.batch * g.inner), 0.0);
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t d = 0; d < g.inner; ++d) {
      double s = 0;
      for (int64_t k = 0; k < g.classes; ++k) {
        const size_t i = static_cast<size_t>((n * g.classes + k) * g.inner + d);
        const double tk = ls > 0 ? t[i] * (1 - ls) + ls / c : t[i];
        s -= lsm[i] * tk * (weight != nullptr ? weight->get(k) : 1.0);
      }
      rows[n * g.inner + d] = s;
    }
  }
  if (r == LossReduction::none) return Tensor::from_doubles(dtype, g.target_shape, rows);
  const double s = sum_of(rows);
  return Tensor::from_doubles(
      dtype, {}, {r == LossReduction::mean ? s / static_cast<double>(rows.size()) : s});
}

OpInfo cross_entropy_op() {
  OpInfo op;
  op.name = "cross_entropy";
  op.aliases = {"torch.nn.functional.cross_entropy"};
  op.params = {tensor_param("input"),
               tensor_param("target"),
               param("weight", ParamKind::optional_tensor, Arg::make_none()),
               legacy_param("size_average"),
               param("ignore_index", ParamKind::integer, Arg::make_int(-100)),
               legacy_param("reduce"),
               reduction_param(),
               param("label_smoothing", ParamKind::real, Arg::make_real(0.0))};
  op.doc =
      "log_softmax over the class dim, then nll (class indices) or -sum(target * .) "
      "(probabilities); weight, ignore_index, label_smoothing; reduced";
  static constexpr P kReduction{3, 5, 6, false};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(ClassGeometry g, check_class_input(a));
    PF_ASSIGN(int64_t ignore_index, a.integer(4));
    PF_ASSIGN(double ls, a.real(7));
    if (!(ls >= 0 && ls <= 1))
      return a.error(7, "label_smoothing must be between 0.0 and 1.0. Got: " + format_double(ls));
    PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
    const TensorType& t = a.tensor(1);
    if (is_floating(t.dtype)) {
      if (t.shape != a.tensor(0).shape)
        return a.error(1, "probability targets must have the input's shape " +
                              shape_str(a.tensor(0).shape) + ", got " + shape_str(t.shape));
      if (t.dtype != a.tensor(0).dtype)
        return a.error(1, std::string("expected probability targets of dtype ") +
                              dtype_name(a.tensor(0).dtype) + ", got " + dtype_name(t.dtype));
      if (ignore_index >= 0)
        return a.error(4, "ignore_index is not supported for floating point target");
    } else {
      PF_TRY(check_index_target(a, g));
    }
    return std::vector<TensorType>{{a.tensor(0).dtype, loss_shape(r, g.target_shape)}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(ClassGeometry g, check_class_input(a));
    PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
    PF_ASSIGN(double ls, a.real(7));
    const std::vector<double> lsm = log_softmax_classes(a.tensor(0).to_doubles(), g);
    if (is_floating(a.tensor(1).dtype()))
      return std::vector<Tensor>{cross_entropy_probs(a, g, lsm, r, out[0].dtype, ls)};
    PF_ASSIGN(Tensor y, cross_entropy_indices(a, g, lsm, r, out[0].dtype));
    return std::vector<Tensor>{y};
  };
  return op;
}

}  // namespace

void register_loss_ops(OpRegistry& r) {
  r.add(mse_loss_op());
  r.add(l1_loss_op());
  r.add(smooth_l1_loss_op());
  r.add(huber_loss_op());
  r.add(kl_div_op());
  r.add(binary_cross_entropy_op());
  r.add(binary_cross_entropy_with_logits_op());
  r.add(nll_loss_op());
  r.add(cross_entropy_op());
}

}  // namespace pf
