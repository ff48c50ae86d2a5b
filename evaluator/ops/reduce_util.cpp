#include "evaluator/ops/reduce_util.h"

#include "evaluator/ops/type_promotion.h"

namespace pf {

Result<std::optional<std::vector<int64_t>>> read_dims(const ArgReader& args, size_t i) {
  if (args.is_none(i)) return std::optional<std::vector<int64_t>>{};
  PF_ASSIGN(std::vector<int64_t> dims, args.ints(i));
  return std::optional<std::vector<int64_t>>{std::move(dims)};
}

Result<Reduction> plan_reduction(const ArgReader& args, size_t dim_param, const Shape& shape,
                                 const std::optional<std::vector<int64_t>>& dims, bool keepdim) {
  auto rank = static_cast<int64_t>(shape.size());
  Reduction r;
  r.reduced.assign(shape.size(), !dims || dims->empty());
  if (dims) {
    std::vector<bool> seen(std::max<size_t>(shape.size(), 1), false);
    for (int64_t d : *dims) {
      auto nd = normalize_dim(d, rank, args.op().c_str());
      if (!nd.ok()) return args.error(dim_param, nd.error().message);
      if (seen[*nd]) {
        return args.error(dim_param, "dim " + std::to_string(*nd) + " appears more than once");
      }
      seen[*nd] = true;
      if (rank > 0) r.reduced[*nd] = true;
    }
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    if (r.reduced[d]) {
      r.group_size *= shape[d];
      if (keepdim) r.out_shape.push_back(1);
    } else {
      r.groups *= shape[d];
      r.out_shape.push_back(shape[d]);
    }
  }
  return r;
}

Result<Reduction> plan_dim(const ArgReader& args, size_t dim_param, const Shape& shape,
                           bool keepdim) {
  PF_ASSIGN(int64_t dim, args.integer(dim_param));
  return plan_reduction(args, dim_param, shape, std::vector<int64_t>{dim}, keepdim);
}

Tensor grouped_view(const Tensor& x, const Reduction& r) {
  Shape shape;
  Strides strides;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t d = 0; d < x.shape().size(); ++d) {
      if (r.reduced[d] == (pass == 1)) {
        shape.push_back(x.shape()[d]);
        strides.push_back(x.strides()[d]);
      }
    }
  }
  return Tensor::view_of(x, shape, strides, x.offset());
}

std::vector<double> grouped_values(const Tensor& x, const Reduction& r) {
  return grouped_view(x, r).to_doubles();
}

namespace {

Result<Reduction> plan_for(const ArgReader& a, const Shape& shape, const ReduceOpDef& def) {
  std::optional<std::vector<int64_t>> dims;
  bool keepdim = false;
  if (!def.whole) {
    PF_ASSIGN(dims, read_dims(a, 1));
    PF_ASSIGN(keepdim, a.boolean(2));
  }
  PF_ASSIGN(Reduction r, plan_reduction(a, def.whole ? 0 : 1, shape, dims, keepdim));
  bool needs_nonempty = def.needs_nonempty;
  if (needs_nonempty && r.group_size == 0 && shape_numel(shape) == 0) {
    return a.error(1, "cannot reduce over a zero-size dimension (the op has no identity)");
  }
  return r;
}

}  // namespace

OpInfo reduce_op(ReduceOpDef def) {
  OpInfo op;
  op.name = def.name;
  op.aliases = def.aliases;
  op.params = def.params;
  op.doc = def.doc;
  auto shared = std::make_shared<const ReduceOpDef>(std::move(def));
  op.infer = [shared](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    PF_ASSIGN(DType out, shared->out_dtype(a, x.dtype));
    PF_ASSIGN(Reduction r, plan_for(a, x.shape, *shared));
    return std::vector<TensorType>{{out, r.out_shape}};
  };
  op.cpu = [shared](const BoundArgs<Tensor>& a,
                    const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    DType t = out[0].dtype;
    PF_ASSIGN(Reduction r, plan_for(a, x.shape(), *shared));
    Tensor y = Tensor::zeros(t, out[0].shape);
    Tensor grouped = grouped_view(x, r);
    if (!is_floating(t) && !is_floating(x.dtype()) && shared->int_fold) {
      std::vector<int64_t> group(static_cast<size_t>(r.group_size));
      for (int64_t g = 0; g < r.groups; ++g) {
        for (int64_t k = 0; k < r.group_size; ++k) group[k] = grouped.get_int(g * r.group_size + k);
        y.set_int(g, wrap_to_dtype(shared->int_fold(group.data(), r.group_size), t));
      }
      return std::vector<Tensor>{y};
    }
    std::vector<double> values = grouped.to_doubles();
    if (shared->convert_first) {
      for (double& v : values) v = round_to_dtype(v, t);
    }
    for (int64_t g = 0; g < r.groups; ++g) {
      y.set(g, shared->fold(values.data() + g * r.group_size, r.group_size, t));
    }
    return std::vector<Tensor>{y};
  };
  return op;
}

}  // namespace pf
