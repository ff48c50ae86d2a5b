// Ordering along one dim: topk (values, indices), sort (values, indices) and
// argsort, in the one total order of sort_order.h, so every tie has one
// answer. The GPU baseline (kernels/sort.cu) picks in the same order.
#include <algorithm>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/reduce_util.h"
#include "evaluator/ops/sort_order.h"

namespace pf {
namespace {

// Where the parameters are: topk (input, k, dim, largest, sorted); sort
// (input, dim, descending, stable); argsort likewise.
struct OrderParams {
  size_t dim = 1, direction = 2;
  bool has_k = false;
  bool values = true;  // argsort returns only indices
};

Result<int64_t> read_k(const ArgReader& a, const Reduction& r) {
  PF_ASSIGN(int64_t k, a.integer(1));
  if (k < 0 || k > r.group_size) {
    return a.error(1, "k " + std::to_string(k) + " is out of range for a dim of size " +
                          std::to_string(r.group_size));
  }
  return k;
}

OpInfo order_op(const std::string& name, OrderParams p, std::vector<ParamDef> params,
                std::string doc) {
  OpInfo op;
  op.name = name;
  op.aliases = {"torch." + name, "Tensor." + name};
  op.params = std::move(params);
  op.returns_list = p.values;
  op.doc = std::move(doc);
  auto out_shape = [p](const ArgReader& a, const Shape& shape) -> Result<Shape> {
    PF_ASSIGN(Reduction r, plan_dim(a, p.dim, shape, true));
    Shape out = shape;
    if (p.has_k) {
      PF_ASSIGN(int64_t k, read_k(a, r));
      PF_ASSIGN(
          int64_t dim,
          layout::dim_arg(a, p.dim, std::max<int64_t>(static_cast<int64_t>(shape.size()), 1)));
      if (!shape.empty()) out[static_cast<size_t>(dim)] = k;
    }
    return out;
  };
  op.infer = [p, out_shape](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(Shape s, out_shape(a, a.tensor(0).shape));
    PF_TRY(a.boolean(p.direction));
    std::vector<TensorType> out;
    if (p.values) out.push_back({a.tensor(0).dtype, s});
    out.push_back({DType::int64, s});
    return out;
  };
  op.cpu = [p](const BoundArgs<Tensor>& a,
               const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(bool descending, a.boolean(p.direction));
    PF_ASSIGN(Reduction rin, plan_dim(a, p.dim, x.shape(), true));
    const TensorType& index_type = out.back();
    PF_ASSIGN(Reduction rout, plan_dim(a, p.dim, index_type.shape, true));
    const int64_t k = rout.group_size;
    Tensor values = Tensor::zeros(x.dtype(), index_type.shape);
    Tensor indices = Tensor::zeros(DType::int64, index_type.shape);
    Tensor xg = grouped_view(x, rin);
    Tensor vg = grouped_view(values, rout);
    Tensor ig = grouped_view(indices, rout);
    const bool exact = !is_floating(x.dtype());
    for (int64_t g = 0; g < rin.groups; ++g) {
      const int64_t base = g * rin.group_size;
      std::vector<int64_t> pos;
      if (exact) {
        std::vector<int64_t> v(static_cast<size_t>(rin.group_size));
        for (int64_t i = 0; i < rin.group_size; ++i)
          v[static_cast<size_t>(i)] = xg.get_int(base + i);
        pos = ordered_positions(v, k, descending);
      } else {
        std::vector<double> v(static_cast<size_t>(rin.group_size));
        for (int64_t i = 0; i < rin.group_size; ++i) v[static_cast<size_t>(i)] = xg.get(base + i);
        pos = ordered_positions(v, k, descending);
      }
      for (int64_t j = 0; j < k; ++j) {
        const int64_t from = base + pos[static_cast<size_t>(j)];
        ig.set_int(g * k + j, pos[static_cast<size_t>(j)]);
        if (exact) {
          vg.set_int(g * k + j, xg.get_int(from));
        } else {
          vg.set(g * k + j, xg.get(from));
        }
      }
    }
    if (!p.values) return std::vector<Tensor>{indices};
    return std::vector<Tensor>{values, indices};
  };
  return op;
}

}  // namespace

void register_sorting_ops(OpRegistry& r) {
  r.add(order_op("topk", {2, 3, true, true},
                 {tensor_param("input"), param("k", ParamKind::integer),
                  param("dim", ParamKind::integer, Arg::make_int(-1)),
                  param("largest", ParamKind::boolean, Arg::make_bool(true)),
                  param("sorted", ParamKind::boolean, Arg::make_bool(true))},
                 "(values, indices) of the k largest (or smallest) along dim, in order"));
  r.add(order_op("sort", {1, 2, false, true},
                 {tensor_param("input"), param("dim", ParamKind::integer, Arg::make_int(-1)),
                  param("descending", ParamKind::boolean, Arg::make_bool(false)),
                  kwarg("stable", ParamKind::boolean, Arg::make_bool(false))},
                 "(values, indices) sorted along dim; equal values keep their order"));
  r.add(order_op("argsort", {1, 2, false, false},
                 {tensor_param("input"), param("dim", ParamKind::integer, Arg::make_int(-1)),
                  param("descending", ParamKind::boolean, Arg::make_bool(false)),
                  kwarg("stable", ParamKind::boolean, Arg::make_bool(false))},
                 "indices that sort along dim; equal values keep their order"));
}

}  // namespace pf
