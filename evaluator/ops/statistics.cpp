// Statistics over dims: var/std and var_mean/std_mean (correction or unbiased), norm and
// linalg.vector_norm (p = 0, 1, 2, inf, -inf, other; 'fro'), linalg.matrix_norm
// ('fro', 'nuc', +-1, +-2, +-inf), F.normalize, F.cosine_similarity and
// F.pairwise_distance, torch.cdist, torch.dist. Accumulation in float64, one rounding to the
// output dtype.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/strings.h"
#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/reduce_util.h"
#include "evaluator/ops/singular_values.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

bool is_reduced_float(DType t) {
  return t == DType::float16 || t == DType::bfloat16;
}

Status expect_floating(const ArgReader& a, DType t) {
  if (is_floating(t)) return ok_status();
  return a.error(0, std::string("expected a floating tensor, got ") + dtype_name(t));
}

// var(x, False) passes `unbiased` where dim usually goes.
std::string var_overload(std::string_view, std::vector<Arg>& positional,
                         std::vector<std::pair<std::string, Arg>>& keywords) {
  if (positional.size() == 2 && positional[1].kind == Arg::Kind::boolean) {
    keywords.emplace_back("unbiased", positional[1]);
    positional.pop_back();
  }
  return "";
}

// with_mean: var_mean / std_mean, returning (var or std, mean).
OpInfo variance_op(const std::string& name, bool take_sqrt, bool with_mean = false) {
  OpInfo op;
  op.name = with_mean ? name + "_mean" : name;
  op.aliases = {"torch." + op.name};
  if (!with_mean) op.aliases.push_back("Tensor." + name);
  op.returns_list = with_mean;
  op.params = {tensor_param("input"), param("dim", ParamKind::optional_int_list, Arg::make_none()),
               param("unbiased", ParamKind::boolean, Arg::make_bool(true)),
               param("keepdim", ParamKind::boolean, Arg::make_bool(false)),
               kwarg("correction", ParamKind::optional_integer, Arg::make_none())};
  op.doc = std::string(take_sqrt ? "standard deviation" : "variance") +
           " over dim with correction (default 1)" + (with_mean ? ", and the mean" : "");
  op.overload = var_overload;
  auto plan = [](const ArgReader& a, const Shape& shape) -> Result<Reduction> {
    PF_ASSIGN(auto dims, read_dims(a, 1));
    PF_ASSIGN(bool keepdim, a.boolean(3));
    return plan_reduction(a, 1, shape, dims, keepdim);
  };
  op.infer = [plan, with_mean](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    PF_TRY(expect_floating(a, x.dtype));
    PF_TRY(a.boolean(2));
    if (!a.is_none(4)) PF_TRY(a.integer(4));
    PF_ASSIGN(Reduction r, plan(a, x.shape));
    std::vector<TensorType> types = {{x.dtype, r.out_shape}};
    if (with_mean) types.push_back({x.dtype, r.out_shape});
    return types;
  };
  op.cpu = [plan, take_sqrt, with_mean](
               const BoundArgs<Tensor>& a,
               const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(Reduction r, plan(a, x.shape()));
    PF_ASSIGN(bool unbiased, a.boolean(2));
    int64_t correction = unbiased ? 1 : 0;
    if (!a.is_none(4)) {
      PF_ASSIGN(correction, a.integer(4));
    }
    std::vector<double> v = grouped_values(x, r);
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    Tensor means = Tensor::zeros(out[0].dtype, out[0].shape);
    for (int64_t g = 0; g < r.groups; ++g) {
      const double* group = v.data() + g * r.group_size;
      double mean = 0, ss = 0;
      for (int64_t k = 0; k < r.group_size; ++k) mean += group[k];
      mean /= static_cast<double>(r.group_size);
      for (int64_t k = 0; k < r.group_size; ++k) ss += (group[k] - mean) * (group[k] - mean);
      double divisor = std::max<double>(0.0, static_cast<double>(r.group_size - correction));
      double var = ss / divisor;
      y.set(g, take_sqrt ? std::sqrt(var) : var);
      means.set(g, mean);
    }
    if (with_mean) return std::vector<Tensor>{y, means};
    return std::vector<Tensor>{y};
  };
  return op;
}

// The order of a norm: a number, inf, or 'fro' (= 2 over at most two dims).
Result<double> read_order(const ArgReader& a, size_t i, bool allow_fro) {
  const Arg& p = a.arg(i);
  if (p.kind == Arg::Kind::string) {
    if (allow_fro && p.s == "fro") return 2.0;
    return a.error(i, "unsupported norm '" + p.s + "' (supported: numbers, inf, 'fro')");
  }
  return a.real(i);
}

double norm_of(const double* v, int64_t n, double p) {
  double acc = 0;
  if (std::isinf(p)) {
    acc = p > 0 ? 0 : std::numeric_limits<double>::infinity();
    for (int64_t k = 0; k < n; ++k) {
      double m = std::fabs(v[k]);
      if (std::isnan(m)) return m;
      acc = p > 0 ? std::max(acc, m) : std::min(acc, m);
    }
    return acc;
  }
  for (int64_t k = 0; k < n; ++k) {
    double m = std::fabs(v[k]);
    if (p == 0) {
      acc += m != 0 ? 1 : 0;
    } else if (p == 1) {
      acc += m;
    } else if (p == 2) {
      acc += m * m;
    } else {
      acc += std::pow(m, p);
    }
  }
  if (p == 0 || p == 1) return acc;
  return p == 2 ? std::sqrt(acc) : std::pow(acc, 1.0 / p);
}

// norm(input, p, dim, keepdim, dtype) and vector_norm(x, ord, dim, keepdim, dtype).
OpInfo norm_op(const std::string& name, std::vector<std::string> aliases, const char* order_name,
               Arg default_order, bool allow_fro) {
  OpInfo op;
  op.name = name;
  op.aliases = std::move(aliases);
  op.params = {tensor_param("input"), param(order_name, ParamKind::scalar, default_order),
               param("dim", ParamKind::optional_int_list, Arg::make_none()),
               param("keepdim", ParamKind::boolean, Arg::make_bool(false)),
               kwarg("dtype", ParamKind::optional_dtype, Arg::make_none())};
  if (allow_fro) op.params.push_back(ignored_param("out"));
  auto plan = [allow_fro](const ArgReader& a, const Shape& shape) -> Result<Reduction> {
    PF_ASSIGN(auto dims, read_dims(a, 2));
    PF_ASSIGN(bool keepdim, a.boolean(3));
    PF_ASSIGN(Reduction r, plan_reduction(a, 2, shape, dims, keepdim));
    if (allow_fro && a.arg(1).kind == Arg::Kind::string && dims && dims->size() > 2) {
      return a.error(1, "'fro' takes at most two dims");
    }
    return r;
  };
  op.infer = [plan, allow_fro](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    DType t = a.tensor(0).dtype;
    if (!a.is_none(4)) {
      PF_ASSIGN(t, a.dtype(4));
    }
    PF_TRY(expect_floating(a, a.tensor(0).dtype));
    PF_TRY(read_order(a, 1, allow_fro));
    PF_ASSIGN(Reduction r, plan(a, a.tensor(0).shape));
    return std::vector<TensorType>{{t, r.out_shape}};
  };
  op.cpu = [plan, allow_fro](const BoundArgs<Tensor>& a,
                             const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(double p, read_order(a, 1, allow_fro));
    PF_ASSIGN(Reduction r, plan(a, x.shape()));
    std::vector<double> v = grouped_values(x, r);
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    for (int64_t g = 0; g < r.groups; ++g)
      y.set(g, norm_of(v.data() + g * r.group_size, r.group_size, p));
    return std::vector<Tensor>{y};
  };
  op.doc = "p-norm over dim (all elements if None)";
  return op;
}

// F.normalize: x / max(norm_p(x, dim, keepdim), eps).
OpInfo normalize_op() {
  OpInfo op;
  op.name = "normalize";
  op.aliases = {"torch.nn.functional.normalize"};
  op.params = {tensor_param("input"), param("p", ParamKind::real, Arg::make_real(2.0)),
               param("dim", ParamKind::integer, Arg::make_int(1)),
               param("eps", ParamKind::real, Arg::make_real(1e-12)), ignored_param("out", false)};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_TRY(expect_floating(a, a.tensor(0).dtype));
    PF_TRY(plan_dim(a, 2, a.tensor(0).shape, true));
    PF_TRY(a.real(1));
    PF_TRY(a.real(3));
    return std::vector<TensorType>{a.tensor(0)};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(double p, a.real(1));
    PF_ASSIGN(double eps, a.real(3));
    PF_ASSIGN(Reduction r, plan_dim(a, 2, x.shape(), true));
    // Write through a grouped view of the output so group order matches.
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    Tensor y_grouped = grouped_view(y, r);
    std::vector<double> v = grouped_values(x, r);
    for (int64_t g = 0; g < r.groups; ++g) {
      const double* group = v.data() + g * r.group_size;
      double denom = std::max(norm_of(group, r.group_size, p), eps);
      for (int64_t k = 0; k < r.group_size; ++k)
        y_grouped.set(g * r.group_size + k, group[k] / denom);
    }
    return std::vector<Tensor>{y};
  };
  op.doc = "input divided by its p-norm along dim (at least eps)";
  return op;
}

// torch.linalg.matrix_norm(A, ord='fro', dim=(-2, -1), keepdim, *, dtype): the
// norm of each matrix over two dims. 'fro', the induced norms 1, -1, inf, -inf
// (max/min absolute column or row sum), and from the singular values 'nuc'
// (their sum), 2 and -2 (the largest and smallest). dim None
// (linalg.norm(A, ord) without dim) takes the two dims of a 2-d input, as
// PyTorch, which rejects other ranks there.
struct MatrixNormPlan {
  Reduction r;
  int64_t rows_dim = 0, cols_dim = 0;  // ord's "rows" (dim[0]) and "columns" (dim[1])
};

Result<MatrixNormPlan> plan_matrix_norm(const ArgReader& a, const Shape& shape) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> dims = {0, 1};
  if (a.is_none(2)) {
    if (rank != 2) {
      return a.error(
          0, "a matrix norm without dim takes a 2-d input, got " + std::to_string(rank) + " dims");
    }
  } else {
    PF_ASSIGN(dims, a.ints(2));
    if (dims.size() != 2) return a.error(2, "a matrix norm takes exactly two dims");
  }
  PF_ASSIGN(bool keepdim, a.boolean(3));
  MatrixNormPlan plan;
  PF_ASSIGN(plan.r, plan_reduction(a, 2, shape, dims, keepdim));
  plan.rows_dim = dims[0] < 0 ? dims[0] + rank : dims[0];
  plan.cols_dim = dims[1] < 0 ? dims[1] + rank : dims[1];
  return plan;
}

// The order: 'fro' -> 2 with singular = false (Frobenius); 'nuc' -> 1 with
// singular = true (sum of singular values); +-2 singular (largest/smallest);
// +-1, +-inf induced.
constexpr int64_t kMaxSingularSide = 256;

struct MatrixOrder {
  double ord = 2;
  bool singular = false;
};

Result<MatrixOrder> read_matrix_order(const ArgReader& a) {
  const Arg& p = a.arg(1);
  if (p.kind == Arg::Kind::string) {
    if (p.s == "fro") return MatrixOrder{2.0, false};
    if (p.s == "nuc") return MatrixOrder{1.0, true};
    return a.error(1, "matrix norm '" + p.s +
                          "' is not a matrix norm (supported: 'fro', 'nuc', 1, -1, 2, -2, inf, "
                          "-inf)");
  }
  PF_ASSIGN(double ord, a.real(1));
  if (std::fabs(ord) == 1 || std::isinf(ord)) return MatrixOrder{ord, false};
  if (std::fabs(ord) == 2) return MatrixOrder{ord, true};
  return a.error(1, "matrix norm ord " + format_double(ord) +
                        " is not a matrix norm (supported: 'fro', 'nuc', 1, -1, 2, -2, inf, -inf)");
}

OpInfo matrix_norm_op() {
  OpInfo op;
  op.name = "matrix_norm";
  op.aliases = {"torch.linalg.matrix_norm"};
  op.params = {tensor_param("input"),
               param("ord", ParamKind::scalar, Arg::make_string("fro")),
               param("dim", ParamKind::optional_int_list,
                     Arg::make_tuple({Arg::make_int(-2), Arg::make_int(-1)})),
               param("keepdim", ParamKind::boolean, Arg::make_bool(false)),
               kwarg("dtype", ParamKind::optional_dtype, Arg::make_none()),
               ignored_param("out")};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    DType t = a.tensor(0).dtype;
    if (!a.is_none(4)) {
      PF_ASSIGN(t, a.dtype(4));
    }
    PF_TRY(expect_floating(a, a.tensor(0).dtype));
    PF_ASSIGN(MatrixOrder order, read_matrix_order(a));
    PF_ASSIGN(MatrixNormPlan plan, plan_matrix_norm(a, a.tensor(0).shape));
    if (order.singular && (is_reduced_float(a.tensor(0).dtype) || is_reduced_float(t))) {
      return a.error(0, std::string("singular values of ") + dtype_name(a.tensor(0).dtype) +
                            " are not supported, as in PyTorch (low precision)");
    }
    if (order.singular && std::fabs(order.ord) == 2 && plan.r.group_size == 0 &&
        plan.r.groups > 0) {
      return a.error(0, "the largest or smallest singular value of an empty matrix is undefined");
    }
    // The CPU reference's Jacobi sweeps cost min^2 * max per sweep: a bound
    // that keeps one matrix well under a second.
    const Shape& shape = a.tensor(0).shape;
    const int64_t small_side = std::min(shape[static_cast<size_t>(plan.rows_dim)],
                                        shape[static_cast<size_t>(plan.cols_dim)]);
    if (order.singular && small_side > kMaxSingularSide) {
      return a.error(0, "singular values of matrices with both sides above " +
                            std::to_string(kMaxSingularSide) + " are not supported");
    }
    return std::vector<TensorType>{{t, plan.r.out_shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(MatrixOrder order, read_matrix_order(a));
    const double ord = order.ord;
    PF_ASSIGN(MatrixNormPlan plan, plan_matrix_norm(a, x.shape()));
    // Each group lists its matrix row-major over (lower dim, higher dim).
    const int64_t lo = std::min(plan.rows_dim, plan.cols_dim);
    const int64_t hi = std::max(plan.rows_dim, plan.cols_dim);
    const int64_t n_lo = x.shape()[static_cast<size_t>(lo)];
    const int64_t n_hi = x.shape()[static_cast<size_t>(hi)];
    // ord = +-inf sums along dim[1] and takes the max/min over dim[0];
    // ord = +-1 the other way round.
    const bool sum_over_hi = (std::isinf(ord) ? plan.cols_dim : plan.rows_dim) == hi;
    std::vector<double> v = grouped_values(x, plan.r);
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    for (int64_t g = 0; g < plan.r.groups; ++g) {
      const double* m = v.data() + g * plan.r.group_size;
      if (order.singular) {
        std::vector<double> sigma = singular_values(m, n_lo, n_hi);
        double out_value = 0;
        if (ord == 1) {
          for (double s : sigma) out_value += s;
        } else {
          out_value = ord > 0 ? sigma.front() : sigma.back();
        }
        y.set(g, out_value);
        continue;
      }
      if (ord == 2) {
        y.set(g, norm_of(m, plan.r.group_size, 2));
        continue;
      }
      const int64_t outer = sum_over_hi ? n_lo : n_hi, inner = sum_over_hi ? n_hi : n_lo;
      std::vector<double> sums(static_cast<size_t>(outer), 0.0);
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t k = 0; k < inner; ++k) {
          sums[static_cast<size_t>(o)] +=
              std::fabs(sum_over_hi ? m[o * n_hi + k] : m[k * n_hi + o]);
        }
      }
      const double inf = std::numeric_limits<double>::infinity();
      y.set(g, norm_of(sums.data(), outer, ord > 0 ? inf : -inf));
    }
    return std::vector<Tensor>{y};
  };
  op.doc =
      "matrix norm over two dims: 'fro', the max/min absolute column (1) or row (inf) sum, or from "
      "the singular values ('nuc' their sum, 2/-2 the largest/smallest)";
  return op;
}

// Both operands broadcast to one shape; `dim` is a dim of that shape.
struct PairPlan {
  Shape shape;
  Reduction r;
};

template <typename T>
Result<PairPlan> pair_plan(const BoundArgs<T>& a, const Shape& s1, const Shape& s2,
                           size_t dim_param, int64_t dim, bool keepdim) {
  auto b = broadcast_shapes(s1, s2);
  if (!b.ok()) return a.error(1, "the inputs do not broadcast: " + b.error().message);
  PairPlan p;
  p.shape = *b;
  PF_ASSIGN(p.r, plan_reduction(a, dim_param, p.shape, std::vector<int64_t>{dim}, keepdim));
  return p;
}

// F.cosine_similarity(x1, x2, dim=1, eps=1e-8) as PyTorch 1.13: each operand
// divided by its 2-norm clamped to eps, then the products summed over dim.
OpInfo cosine_similarity_op() {
  OpInfo op;
  op.name = "cosine_similarity";
  op.aliases = {"torch.nn.functional.cosine_similarity", "torch.cosine_similarity"};
  op.params = {tensor_param("x1"), tensor_param("x2"),
               param("dim", ParamKind::integer, Arg::make_int(1)),
               param("eps", ParamKind::real, Arg::make_real(1e-8))};
  op.doc = "sum over dim of (x1 / max(|x1|, eps)) * (x2 / max(|x2|, eps))";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const DType t = result_type({{a.tensor(0).dtype}, {a.tensor(1).dtype}});
    PF_TRY(expect_floating(a, t));
    PF_ASSIGN(int64_t dim, a.integer(2));
    PF_ASSIGN(PairPlan p, pair_plan(a, a.tensor(0).shape, a.tensor(1).shape, 2, dim, false));
    PF_TRY(a.real(3));
    return std::vector<TensorType>{{t, p.r.out_shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(int64_t dim, a.integer(2));
    PF_ASSIGN(double eps, a.real(3));
    PF_ASSIGN(PairPlan p, pair_plan(a, a.tensor(0).shape(), a.tensor(1).shape(), 2, dim, false));
    const std::vector<double> v1 =
        grouped_values(layout::broadcast_view(a.tensor(0), p.shape), p.r);
    const std::vector<double> v2 =
        grouped_values(layout::broadcast_view(a.tensor(1), p.shape), p.r);
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    const int64_t n = p.r.group_size;
    for (int64_t g = 0; g < p.r.groups; ++g) {
      const double* g1 = v1.data() + g * n;
      const double* g2 = v2.data() + g * n;
      const double n1 = std::max(norm_of(g1, n, 2), eps), n2 = std::max(norm_of(g2, n, 2), eps);
      double acc = 0;
      for (int64_t k = 0; k < n; ++k) acc += (g1[k] / n1) * (g2[k] / n2);
      y.set(g, acc);
    }
    return std::vector<Tensor>{y};
  };
  return op;
}

// F.pairwise_distance(x1, x2, p=2, eps=1e-6, keepdim=False): the p-norm of
// x1 - x2 + eps over the last dim of the broadcast shape, as PyTorch.
OpInfo pairwise_distance_op() {
  OpInfo op;
  op.name = "pairwise_distance";
  op.aliases = {"torch.nn.functional.pairwise_distance", "torch.pairwise_distance"};
  op.params = {tensor_param("x1"), tensor_param("x2"),
               param("p", ParamKind::real, Arg::make_real(2.0)),
               param("eps", ParamKind::real, Arg::make_real(1e-6)),
               param("keepdim", ParamKind::boolean, Arg::make_bool(false))};
  op.doc = "the p-norm of x1 - x2 + eps over the last dim";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    if (a.tensor(0).dtype == DType::boolean && a.tensor(1).dtype == DType::boolean) {
      return a.error(0,
                     "pairwise_distance subtracts its operands, and PyTorch does not subtract "
                     "two bool tensors");
    }
    const DType t =
        result_type({{a.tensor(0).dtype}, {a.tensor(1).dtype}, {DType::float64, false, true}});
    PF_TRY(a.real(2));
    PF_TRY(a.real(3));
    PF_ASSIGN(bool keepdim, a.boolean(4));
    PF_ASSIGN(PairPlan p, pair_plan(a, a.tensor(0).shape, a.tensor(1).shape, 0, -1, keepdim));
    return std::vector<TensorType>{{t, p.r.out_shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(double pn, a.real(2));
    PF_ASSIGN(double eps, a.real(3));
    PF_ASSIGN(bool keepdim, a.boolean(4));
    PF_ASSIGN(PairPlan p, pair_plan(a, a.tensor(0).shape(), a.tensor(1).shape(), 0, -1, keepdim));
    const std::vector<double> v1 =
        grouped_values(layout::broadcast_view(a.tensor(0), p.shape), p.r);
    const std::vector<double> v2 =
        grouped_values(layout::broadcast_view(a.tensor(1), p.shape), p.r);
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    const int64_t n = p.r.group_size;
    // x1 - x2 is computed in the operands' own type before eps promotes it:
    // integer differences wrap (uint8 3 - 5 is 254), as in PyTorch.
    const DType diff_type = result_type({{a.tensor(0).dtype()}, {a.tensor(1).dtype()}});
    const auto difference = [diff_type](double x1, double x2) {
      if (is_floating(diff_type)) return x1 - x2;
      return static_cast<double>(
          wrap_to_dtype(static_cast<int64_t>(x1) - static_cast<int64_t>(x2), diff_type));
    };
    std::vector<double> d(static_cast<size_t>(n));
    for (int64_t g = 0; g < p.r.groups; ++g) {
      for (int64_t k = 0; k < n; ++k) d[k] = difference(v1[g * n + k], v2[g * n + k]) + eps;
      y.set(g, norm_of(d.data(), n, pn));
    }
    return std::vector<Tensor>{y};
  };
  return op;
}

// torch.cdist(x1, x2, p=2, compute_mode=...): [B..., P, M] and [B..., R, M]
// (batch dims broadcast) give the p-norm distances [B..., P, R], computed
// exactly (PyTorch's matrix-product form for p = 2 rounds like its GEMM).
struct CdistPlan {
  Shape batch, x1, x2, out;
  int64_t p_rows = 0, r_rows = 0, m = 0;
};

template <typename T>
Result<CdistPlan> cdist_plan(const BoundArgs<T>& a, const Shape& s1, const Shape& s2) {
  for (size_t i : {0, 1}) {
    const Shape& s = i == 0 ? s1 : s2;
    if (s.size() < 2) {
      return a.error(i, "cdist only supports at least 2-d tensors, got shape " + shape_str(s));
    }
  }
  CdistPlan c;
  c.m = s1.back();
  if (s2.back() != c.m) {
    return a.error(1, "x1 and x2 must have the same number of columns, got " + std::to_string(c.m) +
                          " and " + std::to_string(s2.back()));
  }
  auto b = broadcast_shapes(Shape(s1.begin(), s1.end() - 2), Shape(s2.begin(), s2.end() - 2));
  if (!b.ok()) return a.error(1, "batch dims do not broadcast: " + b.error().message);
  c.batch = *b;
  c.p_rows = s1[s1.size() - 2];
  c.r_rows = s2[s2.size() - 2];
  c.x1 = c.batch;
  c.x1.insert(c.x1.end(), {c.p_rows, c.m});
  c.x2 = c.batch;
  c.x2.insert(c.x2.end(), {c.r_rows, c.m});
  c.out = c.batch;
  c.out.insert(c.out.end(), {c.p_rows, c.r_rows});
  return c;
}

OpInfo cdist_op() {
  OpInfo op;
  op.name = "cdist";
  op.aliases = {"torch.cdist", "torch.functional.cdist"};
  op.params = {tensor_param("x1"), tensor_param("x2"),
               param("p", ParamKind::real, Arg::make_real(2.0)),
               param("compute_mode", ParamKind::string,
                     Arg::make_string("use_mm_for_euclid_dist_if_necessary"))};
  op.doc =
      "p-norm distances between the rows of x1 and of x2 ([..., P, M], [..., R, M] -> [..., P, R])";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const DType t = a.tensor(0).dtype;
    if (t != DType::float32 && t != DType::float64) {
      return a.error(0, std::string("cdist supports float32 and float64 (as PyTorch's CPU), got ") +
                            dtype_name(t));
    }
    PF_TRY(layout::require_same_dtype(a, 1, t, a.tensor(1).dtype));
    PF_ASSIGN(double p, a.real(2));
    if (!(p >= 0)) return a.error(2, "cdist only supports non-negative p values");
    PF_ASSIGN(std::string mode, a.string(3));
    if (mode != "use_mm_for_euclid_dist_if_necessary" && mode != "use_mm_for_euclid_dist" &&
        mode != "donot_use_mm_for_euclid_dist") {
      return a.error(3, "unknown compute_mode '" + mode + "'");
    }
    PF_ASSIGN(CdistPlan c, cdist_plan(a, a.tensor(0).shape, a.tensor(1).shape));
    return std::vector<TensorType>{{t, c.out}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(double p, a.real(2));
    PF_ASSIGN(CdistPlan c, cdist_plan(a, a.tensor(0).shape(), a.tensor(1).shape()));
    const std::vector<double> v1 = layout::broadcast_view(a.tensor(0), c.x1).to_doubles();
    const std::vector<double> v2 = layout::broadcast_view(a.tensor(1), c.x2).to_doubles();
    Tensor y = Tensor::zeros(out[0].dtype, c.out);
    std::vector<double> d(static_cast<size_t>(c.m));
    int64_t e = 0;
    for (int64_t b = 0, nb = shape_numel(c.batch); b < nb; ++b) {
      for (int64_t i = 0; i < c.p_rows; ++i) {
        const double* r1 = v1.data() + (b * c.p_rows + i) * c.m;
        for (int64_t j = 0; j < c.r_rows; ++j) {
          const double* r2 = v2.data() + (b * c.r_rows + j) * c.m;
          for (int64_t k = 0; k < c.m; ++k) d[k] = r1[k] - r2[k];
          y.set(e++, norm_of(d.data(), c.m, p));
        }
      }
    }
    return std::vector<Tensor>{y};
  };
  return op;
}

// torch.dist(input, other, p=2): the p-norm of input - other (broadcast) over
// every element, floating only as in PyTorch.
OpInfo dist_op() {
  OpInfo op;
  op.name = "dist";
  op.aliases = {"torch.dist", "Tensor.dist"};
  op.params = {tensor_param("input"), tensor_param("other"),
               param("p", ParamKind::real, Arg::make_real(2.0))};
  op.doc = "the p-norm of input - other over all elements (0-d)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const DType t = result_type({{a.tensor(0).dtype}, {a.tensor(1).dtype}});
    PF_TRY(expect_floating(a, t));
    PF_TRY(a.real(2));
    auto b = broadcast_shapes(a.tensor(0).shape, a.tensor(1).shape);
    if (!b.ok()) return a.error(1, "the inputs do not broadcast: " + b.error().message);
    return std::vector<TensorType>{{t, {}}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(double p, a.real(2));
    auto b = broadcast_shapes(a.tensor(0).shape(), a.tensor(1).shape());
    if (!b.ok()) return a.error(1, "the inputs do not broadcast: " + b.error().message);
    const std::vector<double> v1 = layout::broadcast_view(a.tensor(0), *b).to_doubles();
    const std::vector<double> v2 = layout::broadcast_view(a.tensor(1), *b).to_doubles();
    std::vector<double> d(v1.size());
    for (size_t k = 0; k < d.size(); ++k) d[k] = v1[k] - v2[k];
    Tensor y = Tensor::zeros(out[0].dtype, {});
    y.set(0, norm_of(d.data(), static_cast<int64_t>(d.size()), p));
    return std::vector<Tensor>{y};
  };
  return op;
}

// torch.linalg.norm is vector_norm when ord is None (2-norm of the flattened
// input or over `dim`; over two dims that is Frobenius) or when `dim` names one
// dim. A given ord over a whole matrix or two dims is matrix_norm.
std::string linalg_norm_overload(std::string_view spelling, std::vector<Arg>& positional,
                                 std::vector<std::pair<std::string, Arg>>& keywords) {
  if (spelling != "torch.linalg.norm") return "";
  Arg* ord = positional.size() >= 2 ? &positional[1] : nullptr;
  const Arg* dim = positional.size() >= 3 ? &positional[2] : nullptr;
  for (auto& [key, value] : keywords) {
    if (key == "ord") ord = &value;
    if (key == "dim") dim = &value;
  }
  if (ord == nullptr) return "";
  if (ord->is_none() || (ord->kind == Arg::Kind::string && ord->s == "fro")) {
    *ord = Arg::make_real(2.0);
    return "";
  }
  bool one_dim = dim != nullptr && (dim->kind == Arg::Kind::integer ||
                                    (dim->is_sequence() && dim->items.size() == 1));
  if (one_dim) return "";
  // matrix_norm's parameters are linalg.norm's; dim None must stay None
  // (a 2-d input), not become matrix_norm's default (-2, -1).
  if (dim == nullptr) keywords.emplace_back("dim", Arg::make_none());
  return "matrix_norm";
}

// torch.norm(A, p='nuc', dim) is the nuclear matrix norm; every other p is a
// vector norm (p=2 over two dims is Frobenius, not the spectral norm).
std::string norm_overload(std::string_view, std::vector<Arg>& positional,
                          std::vector<std::pair<std::string, Arg>>& keywords) {
  const Arg* p = positional.size() >= 2 ? &positional[1] : nullptr;
  bool has_dim = positional.size() >= 3;
  for (const auto& [key, value] : keywords) {
    if (key == "p") p = &value;
    if (key == "dim") has_dim = true;
  }
  if (p == nullptr || p->kind != Arg::Kind::string || p->s != "nuc") return "";
  for (auto& [key, value] : keywords) {
    if (key == "p") key = "ord";
  }
  if (!has_dim) keywords.emplace_back("dim", Arg::make_none());
  return "matrix_norm";
}

}  // namespace

void register_statistics_ops(OpRegistry& r) {
  r.add(variance_op("var", false));
  r.add(variance_op("std", true));
  r.add(variance_op("var", false, true));
  r.add(variance_op("std", true, true));
  OpInfo norm = norm_op("norm", {"torch.norm", "Tensor.norm", "torch.functional.norm"}, "p",
                        Arg::make_string("fro"), true);
  norm.overload = norm_overload;
  r.add(std::move(norm));
  OpInfo vector_norm = norm_op("vector_norm", {"torch.linalg.vector_norm", "torch.linalg.norm"},
                               "ord", Arg::make_real(2.0), false);
  vector_norm.overload = linalg_norm_overload;
  r.add(std::move(vector_norm));
  r.add(matrix_norm_op());
  r.add(normalize_op());
  r.add(cosine_similarity_op());
  r.add(pairwise_distance_op());
  r.add(cdist_op());
  r.add(dist_op());
}

}  // namespace pf
