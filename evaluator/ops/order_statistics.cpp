// Order statistics: kthvalue, median and nanmedian (of the whole tensor, or
// along a dim with indices), msort, quantile and nanquantile. Each picks
// from one group sorted in the total order of sort_order.h (NaN last, ties
// by index), which is also what PyTorch's CPU median picks on ties; the GPU
// baseline composes its sort with gathers in the same order
// (gpu/ops_order_statistics.cpp).
#include <algorithm>
#include <cmath>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/reduce_util.h"
#include "evaluator/ops/sort_order.h"

namespace pf {
namespace {

enum class Pick : uint8_t { kth, median, nanmedian };

// One group's positions in ascending order, and how many of its values are NaN.
struct SortedGroup {
  std::vector<int64_t> pos;
  int64_t nans = 0;
};

SortedGroup sort_group(const Tensor& xg, int64_t base, int64_t n) {
  SortedGroup s;
  if (!is_floating(xg.dtype())) {
    std::vector<int64_t> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = xg.get_int(base + i);
    s.pos = ordered_positions(v, n, false);
    return s;
  }
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    v[static_cast<size_t>(i)] = xg.get(base + i);
    if (std::isnan(v[static_cast<size_t>(i)])) ++s.nans;
  }
  s.pos = ordered_positions(v, n, false);
  return s;
}

// Where the pick lies in the ascending order. median: a group holding NaN
// gives its first NaN (NaNs sort last, in index order), as PyTorch; else the
// lower median. nanmedian: the lower median of the numbers, the first NaN
// when there are none ((-1) / 2 truncates to 0).
int64_t pick_position(Pick p, int64_t n, int64_t nans, int64_t k) {
  switch (p) {
    case Pick::kth:
      return k - 1;
    case Pick::median:
      return nans > 0 ? n - nans : (n - 1) / 2;
    case Pick::nanmedian:
      return (n - nans - 1) / 2;
  }
  return 0;
}

// kthvalue(input, k, dim, keepdim); median_dim / nanmedian_dim (input, dim,
// keepdim); median / nanmedian (input): the whole tensor, values only.
OpInfo pick_op(const std::string& name, Pick pick, bool whole) {
  const bool kth = pick == Pick::kth;
  const size_t dim_param = kth ? 2 : 1;
  OpInfo op;
  op.name = whole || kth ? name : name + "_dim";
  if (whole || kth) op.aliases = {"torch." + name, "Tensor." + name};
  op.params = {tensor_param("input")};
  if (kth) op.params.push_back(param("k", ParamKind::integer));
  if (!whole) {
    // dim has no default where only the overload reaches the op (median_dim):
    // the printed call must keep it, or it would parse back as the whole form.
    op.params.push_back(kth ? param("dim", ParamKind::integer, Arg::make_int(-1))
                            : param("dim", ParamKind::integer));
    op.params.push_back(param("keepdim", ParamKind::boolean, Arg::make_bool(false)));
  }
  op.returns_list = !whole;
  auto plan = [whole, dim_param](const ArgReader& a, const Shape& shape) -> Result<Reduction> {
    if (whole) return plan_reduction(a, 0, shape, std::nullopt, false);
    PF_ASSIGN(bool keepdim, a.boolean(dim_param + 1));
    return plan_dim(a, dim_param, shape, keepdim);
  };
  op.infer = [=](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    if (x.dtype == DType::boolean) {
      return a.error(0, "\"" + name + "\" is not implemented for bool tensors (as in PyTorch)");
    }
    PF_ASSIGN(Reduction r, plan(a, x.shape));
    if (r.group_size == 0) {
      return a.error(whole ? 0 : dim_param, "cannot take the " + name + " of no values");
    }
    if (kth) {
      PF_ASSIGN(int64_t k, a.integer(1));
      if (k < 1 || k > r.group_size) {
        return a.error(1, "k " + std::to_string(k) + " is out of range for a dim of size " +
                              std::to_string(r.group_size));
      }
    }
    std::vector<TensorType> out{{x.dtype, r.out_shape}};
    if (!whole) out.push_back({DType::int64, r.out_shape});
    return out;
  };
  op.cpu = [=](const BoundArgs<Tensor>& a,
               const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(Reduction r, plan(a, x.shape()));
    const int64_t k = kth ? a.integer(1).value() : 0;
    Tensor values = Tensor::zeros(x.dtype(), out[0].shape);
    Tensor indices = Tensor::zeros(DType::int64, out[0].shape);
    const Tensor xg = grouped_view(x, r);
    const bool exact = !is_floating(x.dtype());
    for (int64_t g = 0; g < r.groups; ++g) {
      const int64_t base = g * r.group_size;
      const SortedGroup s = sort_group(xg, base, r.group_size);
      const int64_t at = s.pos[static_cast<size_t>(pick_position(pick, r.group_size, s.nans, k))];
      indices.set_int(g, at);
      if (exact) {
        values.set_int(g, xg.get_int(base + at));
      } else {
        values.set(g, xg.get(base + at));
      }
    }
    if (whole) return std::vector<Tensor>{values};
    return std::vector<Tensor>{values, indices};
  };
  if (whole) {
    op.overload = [name](std::string_view, std::vector<Arg>& positional,
                         std::vector<std::pair<std::string, Arg>>& keywords) -> std::string {
      const bool has_dim =
          positional.size() >= 2 || std::any_of(keywords.begin(), keywords.end(),
                                                [](const auto& kw) { return kw.first == "dim"; });
      return has_dim ? name + "_dim" : "";
    };
  }
  const std::string lower = pick == Pick::nanmedian ? "lower median of the non-NaN values"
                                                    : "lower median (NaN if any is NaN)";
  op.doc = kth     ? "(values, indices) of the k-th smallest along dim"
           : whole ? lower + " of all elements (0-dim)"
                   : "(values, indices) of the " + lower + " along dim";
  return op;
}

// msort(input): sort(input, dim=0) values.
OpInfo msort_op() {
  OpInfo op;
  op.name = "msort";
  op.aliases = {"torch.msort", "Tensor.msort"};
  op.params = {tensor_param("input")};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    return std::vector<TensorType>{a.tensor(0)};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    Tensor y = Tensor::zeros(x.dtype(), out[0].shape);
    if (x.shape().empty()) {
      y.set(0, x.get(0));
      return std::vector<Tensor>{y};
    }
    PF_ASSIGN(Reduction r, plan_reduction(a, 0, x.shape(), std::vector<int64_t>{0}, true));
    const Tensor xg = grouped_view(x, r);
    Tensor yg = grouped_view(y, r);
    const bool exact = !is_floating(x.dtype());
    for (int64_t g = 0; g < r.groups; ++g) {
      const int64_t base = g * r.group_size;
      const SortedGroup s = sort_group(xg, base, r.group_size);
      for (int64_t i = 0; i < r.group_size; ++i) {
        const int64_t from = base + s.pos[static_cast<size_t>(i)];
        if (exact) {
          yg.set_int(base + i, xg.get_int(from));
        } else {
          yg.set(base + i, xg.get(from));
        }
      }
    }
    return std::vector<Tensor>{y};
  };
  op.doc = "sorted along dim 0 (values)";
  return op;
}

enum class Interp : uint8_t { linear, lower, higher, nearest, midpoint };

Result<Interp> read_interpolation(const ArgReader& a, size_t i) {
  PF_ASSIGN(std::string s, a.string(i));
  if (s == "linear") return Interp::linear;
  if (s == "lower") return Interp::lower;
  if (s == "higher") return Interp::higher;
  if (s == "nearest") return Interp::nearest;
  if (s == "midpoint") return Interp::midpoint;
  return a.error(
      i,
      "interpolation must be one of linear, lower, higher, midpoint or nearest, got '" + s + "'");
}

// PyTorch's quantile in the input's dtype T (float or double): the rank
// q * (n - 1) (of the non-NaN count for nanquantile, at least 0; the last
// position, a NaN, when quantile meets one) rounded by the interpolation,
// then lerp between the neighbours as PyTorch's lerp. Rounding the rank in
// T matters: 0.7f * 10 is 7 in float and 6.99... in double.
template <typename T>
T quantile_of(const std::vector<double>& sorted, int64_t nans, double q, Interp m,
              bool ignore_nan) {
  const auto n = static_cast<int64_t>(sorted.size());
  T rank;
  if (ignore_nan) {
    rank = static_cast<T>(q) * static_cast<T>(n - nans - 1);
    if (rank < 0) rank = 0;
  } else {
    rank = nans > 0 ? static_cast<T>(n - 1) : static_cast<T>(q) * static_cast<T>(n - 1);
  }
  if (m == Interp::lower) rank = std::floor(rank);
  if (m == Interp::higher) rank = std::ceil(rank);
  if (m == Interp::nearest) rank = std::nearbyint(rank);  // half to even, as torch.round
  const auto below = static_cast<int64_t>(rank);
  const auto vb = static_cast<T>(sorted[static_cast<size_t>(below)]);
  if (m != Interp::linear && m != Interp::midpoint) return vb;
  const T w = m == Interp::midpoint ? T(0.5) : rank - static_cast<T>(below);
  const auto va = static_cast<T>(sorted[static_cast<size_t>(std::ceil(rank))]);
  return std::abs(w) < T(0.5) ? vb + w * (va - vb) : va - (va - vb) * (T(1) - w);
}

// quantile / nanquantile (input, q, dim=None, keepdim=False, *,
// interpolation='linear'): q a number or a 0-d / 1-d tensor of the input's
// dtype (PyTorch takes no list); a 1-d q puts its length first in the output.
OpInfo quantile_op(const std::string& name, bool ignore_nan) {
  OpInfo op;
  op.name = name;
  op.aliases = {"torch." + name, "Tensor." + name};
  op.params = {tensor_param("input"),
               param("q", ParamKind::tensor_or_scalar),
               param("dim", ParamKind::optional_integer, Arg::make_none()),
               param("keepdim", ParamKind::boolean, Arg::make_bool(false)),
               kwarg("interpolation", ParamKind::string, Arg::make_string("linear")),
               ignored_param("out")};
  auto plan = [](const ArgReader& a, const Shape& shape) -> Result<Reduction> {
    PF_ASSIGN(bool keepdim, a.boolean(3));
    if (a.is_none(2)) return plan_reduction(a, 2, shape, std::nullopt, keepdim);
    return plan_dim(a, 2, shape, keepdim);
  };
  op.infer = [name, plan](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    if (x.dtype != DType::float32 && x.dtype != DType::float64) {
      return a.error(0, name + "() input tensor must be either float or double dtype");
    }
    if (shape_numel(x.shape) == 0) return a.error(0, name + "() input tensor must be non-empty");
    Shape lead;
    if (a.is_tensor(1)) {
      const TensorType& q = a.tensor(1);
      if (q.dtype != x.dtype) {
        return a.error(1, name + "() q tensor must be same dtype as the input tensor");
      }
      if (q.shape.size() > 1) return a.error(1, name + "() q must be a scalar or 1D tensor");
      lead = q.shape;
    } else {
      PF_ASSIGN(double q, a.real(1));
      if (!(q >= 0 && q <= 1)) {
        return a.error(1, name + "() q must be in the range [0, 1] but got " + std::to_string(q));
      }
    }
    PF_TRY(read_interpolation(a, 4));
    PF_ASSIGN(Reduction r, plan(a, x.shape));
    Shape out = lead;
    out.insert(out.end(), r.out_shape.begin(), r.out_shape.end());
    return std::vector<TensorType>{{x.dtype, out}};
  };
  op.cpu = [name, plan, ignore_nan](
               const BoundArgs<Tensor>& a,
               const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(Interp m, read_interpolation(a, 4));
    PF_ASSIGN(Reduction r, plan(a, x.shape()));
    std::vector<double> qs;
    if (a.is_tensor(1)) {
      qs = a.tensor(1).to_doubles();
      for (double q : qs) {
        if (!(q >= 0 && q <= 1))
          return a.error(1, name + "() q values must be in the range [0, 1]");
      }
    } else {
      PF_ASSIGN(double q, a.real(1));
      qs = {q};
    }
    Tensor y = Tensor::zeros(x.dtype(), out[0].shape);
    const Tensor xg = grouped_view(x, r);
    for (int64_t g = 0; g < r.groups; ++g) {
      const int64_t base = g * r.group_size;
      const SortedGroup s = sort_group(xg, base, r.group_size);
      std::vector<double> sorted(s.pos.size());
      for (size_t i = 0; i < s.pos.size(); ++i) sorted[i] = xg.get(base + s.pos[i]);
      for (size_t j = 0; j < qs.size(); ++j) {
        const double v =
            x.dtype() == DType::float32
                ? static_cast<double>(quantile_of<float>(sorted, s.nans, qs[j], m, ignore_nan))
                : quantile_of<double>(sorted, s.nans, qs[j], m, ignore_nan);
        y.set(static_cast<int64_t>(j) * r.groups + g, v);
      }
    }
    return std::vector<Tensor>{y};
  };
  op.doc = ignore_nan ? "q-th quantiles along dim (or of all elements), ignoring NaN"
                      : "q-th quantiles along dim (or of all elements); NaN if any is NaN";
  return op;
}

}  // namespace

void register_order_statistics_ops(OpRegistry& r) {
  r.add(pick_op("kthvalue", Pick::kth, false));
  r.add(pick_op("median", Pick::median, true));
  r.add(pick_op("median", Pick::median, false));
  r.add(pick_op("nanmedian", Pick::nanmedian, true));
  r.add(pick_op("nanmedian", Pick::nanmedian, false));
  r.add(msort_op());
  r.add(quantile_op("quantile", false));
  r.add(quantile_op("nanquantile", true));
}

}  // namespace pf
