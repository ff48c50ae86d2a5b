// Running scans along one dim beyond cumsum/cumprod: cummax and cummin
// (values and indices) and logcumsumexp, each as PyTorch 1.13's sequential
// CPU loop (cummax_cummin_helper, _log_add_exp_helper) so ties, NaN and
// infinities follow it. Floating values are carried in double and rounded
// once on store; the GPU baseline composes the same combine steps
// (gpu/ops_cumulative_extrema.cpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/reduce_util.h"

namespace pf {
namespace {

// cummax(input, dim) / cummin(input, dim) -> (values, indices). The running
// value moves to x[i] when x[i] is NaN or, while the running value is a
// number, when x[i] >= it (<= for cummin): the index of equal values is the
// last one, a NaN's index the latest NaN.
OpInfo extremum_op(const std::string& name, bool is_max) {
  OpInfo op;
  op.name = name;
  op.aliases = {"torch." + name, "Tensor." + name};
  op.params = {tensor_param("input"), param("dim", ParamKind::integer)};
  op.returns_list = true;
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    PF_TRY(plan_dim(a, 1, x.shape, true));
    return std::vector<TensorType>{x, {DType::int64, x.shape}};
  };
  op.cpu = [is_max](const BoundArgs<Tensor>& a,
                    const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(Reduction r, plan_dim(a, 1, x.shape(), true));
    Tensor values = Tensor::zeros(x.dtype(), out[0].shape);
    Tensor indices = Tensor::zeros(DType::int64, out[1].shape);
    const Tensor xg = grouped_view(x, r);
    Tensor vg = grouped_view(values, r);
    Tensor ig = grouped_view(indices, r);
    const bool exact = !is_floating(x.dtype());
    for (int64_t g = 0; g < r.groups; ++g) {
      const int64_t base = g * r.group_size;
      int64_t at = 0;
      for (int64_t k = 0; k < r.group_size; ++k) {
        const int64_t i = base + k;
        bool move = k == 0;
        if (!move && exact) {
          const int64_t v = xg.get_int(i), cur = xg.get_int(base + at);
          move = is_max ? v >= cur : v <= cur;
        } else if (!move) {
          const double v = xg.get(i), cur = xg.get(base + at);
          move = std::isnan(v) || (!std::isnan(cur) && (is_max ? v >= cur : v <= cur));
        }
        if (move) at = k;
        ig.set_int(i, at);
        if (exact) {
          vg.set_int(i, xg.get_int(base + at));
        } else {
          vg.set(i, xg.get(base + at));
        }
      }
    }
    return std::vector<Tensor>{values, indices};
  };
  op.doc = is_max ? "(values, indices) of the running maximum along dim (last index on ties)"
                  : "(values, indices) of the running minimum along dim (last index on ties)";
  return op;
}

// PyTorch's _log_add_exp_helper(x, acc): log(exp(x) + exp(acc)) through the
// larger one; NaN propagates; two equal infinities give x (inf - inf would
// be NaN).
double log_add_exp(double x, double acc) {
  if (std::isnan(acc)) return acc;
  if (std::isnan(x)) return x;
  const double lo = std::min(x, acc), hi = std::max(x, acc);
  if (lo != hi || std::isfinite(lo)) return std::log1p(std::exp(lo - hi)) + hi;
  return x;
}

// logcumsumexp(input, dim): floating inputs only, as PyTorch.
OpInfo logcumsumexp_op() {
  OpInfo op;
  op.name = "logcumsumexp";
  op.aliases = {"torch.logcumsumexp", "Tensor.logcumsumexp"};
  op.params = {tensor_param("input"), param("dim", ParamKind::integer)};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    if (!is_floating(x.dtype)) {
      return a.error(0, std::string("\"logcumsumexp\" is not implemented for ") +
                            dtype_name(x.dtype) + " tensors (as in PyTorch)");
    }
    PF_TRY(plan_dim(a, 1, x.shape, true));
    return std::vector<TensorType>{x};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(Reduction r, plan_dim(a, 1, x.shape(), true));
    Tensor y = Tensor::zeros(x.dtype(), out[0].shape);
    const Tensor xg = grouped_view(x, r);
    Tensor yg = grouped_view(y, r);
    for (int64_t g = 0; g < r.groups; ++g) {
      double acc = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < r.group_size; ++k) {
        const int64_t i = g * r.group_size + k;
        acc = log_add_exp(xg.get(i), acc);
        yg.set(i, acc);
      }
    }
    return std::vector<Tensor>{y};
  };
  op.doc = "log of the running sum of exp along dim";
  return op;
}

}  // namespace

void register_cumulative_extrema_ops(OpRegistry& r) {
  r.add(extremum_op("cummax", true));
  r.add(extremum_op("cummin", false));
  r.add(logcumsumexp_op());
}

}  // namespace pf
