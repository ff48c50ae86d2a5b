// Extremum reductions: amax/amin (several dims), max/min (whole tensor, or
// along a dim returning (values, indices), or elementwise with another
// tensor — one spelling, three overloads), argmax/argmin. NaN wins, ties go
// to the first index, as in PyTorch.
#include <cmath>

#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/reduce_util.h"

namespace pf {
namespace {

// Index of the extremum within a group: NaN first, else the first best.
int64_t best_index(const double* v, int64_t n, bool take_max) {
  int64_t best = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(v[i])) return i;
    if (take_max ? v[i] > v[best] : v[i] < v[best]) best = i;
  }
  return best;
}

int64_t best_index_int(const std::vector<int64_t>& v, bool take_max) {
  int64_t best = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (take_max ? v[i] > v[best] : v[i] < v[best]) best = static_cast<int64_t>(i);
  }
  return best;
}

OpInfo amax_op(const std::string& name, bool take_max) {
  ReduceOpDef d;
  d.name = name;
  d.aliases = {"torch." + name, "Tensor." + name};
  d.params = {tensor_param("input"), param("dim", ParamKind::int_list, Arg::make_list({})),
              param("keepdim", ParamKind::boolean, Arg::make_bool(false))};
  d.out_dtype = [](const ArgReader&, DType in) -> Result<DType> { return in; };
  d.fold = [take_max](const double* v, int64_t n, DType) { return v[best_index(v, n, take_max)]; };
  d.int_fold = [take_max](const int64_t* v, int64_t n) {
    return v[best_index_int(std::vector<int64_t>(v, v + n), take_max)];
  };
  d.needs_nonempty = true;
  d.doc = take_max ? "maximum over dims (all if empty), NaN propagates"
                   : "minimum over dims (all if empty), NaN propagates";
  return reduce_op(std::move(d));
}

// torch.max(x) / torch.max(x, dim) / torch.max(x, other).
std::string extremum_overload(const std::string& name, std::vector<Arg>& positional,
                              const std::vector<std::pair<std::string, Arg>>& keywords) {
  for (const auto& [key, value] : keywords) {
    if (key == "dim") return name + "_dim";
    if (key == "other") return name == "max" ? "maximum" : "minimum";
  }
  if (positional.size() >= 2) {
    if (positional[1].is_value()) return name == "max" ? "maximum" : "minimum";
    return name + "_dim";
  }
  return "";
}

OpInfo full_extremum_op(const std::string& name, bool take_max) {
  ReduceOpDef d;
  d.name = name;
  d.aliases = {"torch." + name, "Tensor." + name};
  // Only the whole-tensor form; dim/keepdim are fixed (not parameters).
  d.params = {tensor_param("input")};
  d.out_dtype = [](const ArgReader&, DType in) -> Result<DType> { return in; };
  d.fold = [take_max](const double* v, int64_t n, DType) { return v[best_index(v, n, take_max)]; };
  d.int_fold = [take_max](const int64_t* v, int64_t n) {
    return v[best_index_int(std::vector<int64_t>(v, v + n), take_max)];
  };
  d.needs_nonempty = true;
  d.whole = true;
  d.doc = take_max ? "maximum of all elements (0-dim)" : "minimum of all elements (0-dim)";
  OpInfo op = reduce_op(std::move(d));
  op.overload = [name](std::string_view, std::vector<Arg>& positional,
                       std::vector<std::pair<std::string, Arg>>& keywords) {
    return extremum_overload(name, positional, keywords);
  };
  return op;
}

OpInfo dim_extremum_op(const std::string& name, bool take_max) {
  OpInfo op;
  op.name = name + "_dim";
  op.params = {tensor_param("input"), param("dim", ParamKind::integer),
               param("keepdim", ParamKind::boolean, Arg::make_bool(false))};
  op.returns_list = true;
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    PF_ASSIGN(bool keepdim, a.boolean(2));
    PF_ASSIGN(Reduction r, plan_dim(a, 1, x.shape, keepdim));
    if (r.group_size == 0) return a.error(1, "cannot reduce over a zero-size dimension");
    return std::vector<TensorType>{{x.dtype, r.out_shape}, {DType::int64, r.out_shape}};
  };
  op.cpu = [take_max](const BoundArgs<Tensor>& a,
                      const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(bool keepdim, a.boolean(2));
    PF_ASSIGN(Reduction r, plan_dim(a, 1, x.shape(), keepdim));
    Tensor values = Tensor::zeros(out[0].dtype, out[0].shape);
    Tensor indices = Tensor::zeros(DType::int64, out[1].shape);
    Tensor grouped = grouped_view(x, r);
    bool exact = !is_floating(x.dtype());
    std::vector<double> v = exact ? std::vector<double>{} : grouped.to_doubles();
    std::vector<int64_t> group(static_cast<size_t>(r.group_size));
    for (int64_t g = 0; g < r.groups; ++g) {
      int64_t best = 0;
      if (exact) {
        for (int64_t k = 0; k < r.group_size; ++k) group[k] = grouped.get_int(g * r.group_size + k);
        best = best_index_int(group, take_max);
        values.set_int(g, group[best]);
      } else {
        best = best_index(v.data() + g * r.group_size, r.group_size, take_max);
        values.set(g, v[g * r.group_size + best]);
      }
      indices.set_int(g, best);
    }
    return std::vector<Tensor>{values, indices};
  };
  op.doc = "(values, indices) of the " + std::string(take_max ? "maximum" : "minimum") +
           " along dim; the first index on ties";
  return op;
}

OpInfo arg_extremum_op(const std::string& name, bool take_max) {
  OpInfo op;
  op.name = name;
  op.aliases = {"torch." + name, "Tensor." + name};
  op.params = {tensor_param("input"), param("dim", ParamKind::optional_integer, Arg::make_none()),
               param("keepdim", ParamKind::boolean, Arg::make_bool(false))};
  auto plan = [](const ArgReader& a, const Shape& shape) -> Result<Reduction> {
    PF_ASSIGN(bool keepdim, a.boolean(2));
    PF_ASSIGN(Reduction r, a.is_none(1) ? plan_reduction(a, 1, shape, std::nullopt, keepdim)
                                        : plan_dim(a, 1, shape, keepdim));
    if (r.group_size == 0) return a.error(1, "cannot reduce over a zero-size dimension");
    return r;
  };
  op.infer = [plan](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(Reduction r, plan(a, a.tensor(0).shape));
    return std::vector<TensorType>{{DType::int64, r.out_shape}};
  };
  op.cpu = [plan, take_max](const BoundArgs<Tensor>& a,
                            const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(Reduction r, plan(a, x.shape()));
    Tensor y = Tensor::zeros(DType::int64, out[0].shape);
    Tensor grouped = grouped_view(x, r);
    bool exact = !is_floating(x.dtype());
    std::vector<double> v = exact ? std::vector<double>{} : grouped.to_doubles();
    std::vector<int64_t> group(static_cast<size_t>(r.group_size));
    for (int64_t g = 0; g < r.groups; ++g) {
      if (exact) {
        for (int64_t k = 0; k < r.group_size; ++k) group[k] = grouped.get_int(g * r.group_size + k);
        y.set_int(g, best_index_int(group, take_max));
      } else {
        y.set_int(g, best_index(v.data() + g * r.group_size, r.group_size, take_max));
      }
    }
    return std::vector<Tensor>{y};
  };
  op.doc = "index of the " + std::string(take_max ? "maximum" : "minimum") +
           " (flattened if dim is None); the first on ties";
  return op;
}

// aminmax(input, *, dim=None, keepdim=False) -> (amin, amax): both through
// amin/amax's own shape rule and fold (dim=None reduces every dim).
Node as_amax_call(const Node& node) {
  Node n = node;
  const Arg& dim = node.args[1];
  n.args[1] = dim.is_none() ? Arg::make_list({}) : Arg::make_list({dim});
  return n;
}

OpInfo aminmax_op() {
  OpInfo op;
  op.name = "aminmax";
  op.aliases = {"torch.aminmax", "Tensor.aminmax"};
  ParamDef dim = param("dim", ParamKind::optional_integer, Arg::make_none());
  dim.keyword_only = true;
  op.params = {tensor_param("input"), dim,
               kwarg("keepdim", ParamKind::boolean, Arg::make_bool(false))};
  op.returns_list = true;
  op.doc = "(amin, amax) over one dim (all elements if None)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const OpRegistry& reg = OpRegistry::builtin();
    Node n = as_amax_call(a.node());
    BoundArgs<TensorType> call(n, reg.param_names("amin"), a.env());
    PF_ASSIGN(std::vector<TensorType> t, reg.find("amin")->infer(call));
    return std::vector<TensorType>{t[0], t[0]};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const OpRegistry& reg = OpRegistry::builtin();
    Node n = as_amax_call(a.node());
    BoundArgs<Tensor> call(n, reg.param_names("amin"), a.env());
    PF_ASSIGN(std::vector<Tensor> lo, reg.find("amin")->cpu(call, {out[0]}));
    PF_ASSIGN(std::vector<Tensor> hi, reg.find("amax")->cpu(call, {out[1]}));
    return std::vector<Tensor>{lo[0], hi[0]};
  };
  return op;
}

}  // namespace

void register_minmax_ops(OpRegistry& r) {
  r.add(aminmax_op());
  r.add(amax_op("amax", true));
  r.add(amax_op("amin", false));
  r.add(full_extremum_op("max", true));
  r.add(full_extremum_op("min", false));
  r.add(dim_extremum_op("max", true));
  r.add(dim_extremum_op("min", false));
  r.add(arg_extremum_op("argmax", true));
  r.add(arg_extremum_op("argmin", false));
}

}  // namespace pf
