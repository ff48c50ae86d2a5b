// Subscripts: `x[...]` (getitem), `x[...] = v` (setitem) and `t[i]` on a
// tensor list (tuple_get).
//
// getitem follows PyTorch (not NumPy): ints select, slices narrow with
// clamping, None inserts a dim, one Ellipsis skips dims, all as a view. Integer
// index tensors (or lists of ints) then gather a copy: the broadcast index shape
// replaces the indexed dims in place when they are adjacent, else goes first.
// Boolean masks are rejected: their output shape depends on the data.
#include <algorithm>
#include <cstring>
#include <optional>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/setitem_form.h"

namespace pf {

Result<SetitemTensorIndex> setitem_tensor_index(const ArgReader& a, const Shape& shape,
                                                const std::function<TensorType(ValueId)>& type_of,
                                                const std::optional<Shape>& value) {
  const Arg& index = a.arg(1);
  std::vector<const Arg*> items;
  if (index.kind == Arg::Kind::tuple) {
    for (const auto& item : index.items) items.push_back(&item);
  } else {
    items.push_back(&index);
  }
  const auto int_list = [](const Arg& item) {
    return item.kind == Arg::Kind::list && !item.items.empty() &&
           std::all_of(item.items.begin(), item.items.end(),
                       [](const Arg& i) { return i.kind == Arg::Kind::integer; });
  };
  if (!index.references_values() && std::none_of(items.begin(), items.end(), [&](const Arg* i) {
        return i->kind == Arg::Kind::list;
      })) {
    return SetitemTensorIndex{};
  }
  const auto full_slice = [](const Arg& item) {
    return item.kind == Arg::Kind::slice && item.items.size() == 3 && item.items[0].is_none() &&
           item.items[1].is_none() && item.items[2].is_none();
  };
  SetitemTensorIndex form;
  int tensors = 0;
  for (size_t k = 0; k < items.size(); ++k) {
    if (items[k]->kind == Arg::Kind::value) {
      ++tensors;
      form.tensor = items[k]->value;
      form.dim = static_cast<int64_t>(k);
    } else if (int_list(*items[k])) {
      ++tensors;
      form.list = items[k];
      form.dim = static_cast<int64_t>(k);
    } else if (!full_slice(*items[k])) {
      form.tensor = kNoValue;
      form.list = nullptr;
      break;
    }
  }
  const auto rank = static_cast<int64_t>(shape.size());
  const std::string unsupported =
      "item assignment with tensor indices takes one bool mask over x's leading dims with a "
      "number value or a value over the other dims (x[mask] = v), one 0-d or 1-d integer index "
      "among full slices (x[:, idx] = v), or several integer indices among full slices "
      "(x[i, j] = v)";
  if (tensors != 1 || !form.indexed()) return a.error(1, unsupported);
  const TensorType t =
      form.list ? TensorType{DType::int64, {static_cast<int64_t>(form.list->items.size())}}
                : type_of(form.tensor);
  if (t.dtype == DType::boolean) {
    if (items.size() != 1 || t.shape.size() > shape.size() ||
        !std::equal(t.shape.begin(), t.shape.end(), shape.begin())) {
      return a.error(1, "a mask must have the shape of x's leading dims, got " +
                            shape_str(t.shape) + " for x of shape " + shape_str(shape));
    }
    if (value && shape_numel(*value) != 1) {
      // A value over the trailing dims alone is written at every masked
      // position (static); one with the masked count as a dim is data.
      const Shape rest(shape.begin() + static_cast<int64_t>(t.shape.size()), shape.end());
      Shape v = *value;
      while (v.size() > rest.size() && v.front() == 1) v.erase(v.begin());
      auto b = broadcast_shapes(rest, v);
      if (v.size() > rest.size() || !b.ok() || *b != rest) {
        return a.error(2,
                       "a masked item assignment takes a number, a one-element value or a "
                       "value over the dims after the mask's (" +
                           shape_str(rest) + "), got " + shape_str(*value) +
                           " (the number of masked positions depends on the data)");
      }
    }
    form.mask = true;
    form.dim = static_cast<int64_t>(t.shape.size());
    return form;
  }
  if (t.dtype != DType::int64 && t.dtype != DType::int32) {
    return a.error(1, std::string("tensors used as indices must be integer or bool tensors, got ") +
                          dtype_name(t.dtype));
  }
  if (t.shape.size() != 1 || form.dim >= rank) return a.error(1, unsupported);
  form.written = shape;
  form.written[form.dim] = t.shape[0];
  if (value) {
    Shape v = *value;
    while (v.size() > form.written.size() && v.front() == 1) v.erase(v.begin());
    auto b = broadcast_shapes(form.written, v);
    if (!b.ok() || *b != form.written) {
      return a.error(2, "shape mismatch: value tensor of shape " + shape_str(*value) +
                            " cannot be broadcast to indexing result of shape " +
                            shape_str(form.written));
    }
  }
  return form;
}

namespace {

using namespace layout;

struct AdvancedIndex {
  int64_t dim = 0;           // position in the basic-indexed view
  const Arg* arg = nullptr;  // a tensor value or a literal list of ints
  Shape shape;
};

struct IndexPlan {
  Geometry view;
  std::vector<AdvancedIndex> advanced;
  Shape index_shape;     // the advanced indices broadcast together
  size_t index_pos = 0;  // where index_shape's dims sit in out_shape
  Shape out_shape;
};

std::vector<const Arg*> index_items(const Arg& index) {
  std::vector<const Arg*> items;
  if (index.kind == Arg::Kind::tuple) {
    for (const auto& item : index.items) items.push_back(&item);
  } else {
    items.push_back(&index);
  }
  return items;
}

Result<int64_t> slice_part(const ArgReader& a, const Arg& part, int64_t fallback) {
  if (part.is_none()) return fallback;
  if (part.kind == Arg::Kind::integer) return part.i;
  return a.error(1, "slice bounds must be ints or None");
}

// `type_of` gives the type of a tensor value used as an index.
template <typename TypeOf>
Result<IndexPlan> plan_getitem(const Geometry& in, const ArgReader& a, TypeOf type_of) {
  auto items = index_items(a.arg(1));
  int64_t rank = static_cast<int64_t>(in.shape.size());
  int64_t consumed = 0;
  int ellipses = 0;
  for (const Arg* item : items) {
    switch (item->kind) {
      case Arg::Kind::integer:
      case Arg::Kind::slice:
      case Arg::Kind::value:
      case Arg::Kind::list:
        ++consumed;
        break;
      case Arg::Kind::ellipsis:
        ++ellipses;
        break;
      case Arg::Kind::none:
        break;
      default:
        return a.error(1, "unsupported index '" + arg_to_string(*item, {}) +
                              "' (use ints, slices, None, ..., or integer tensors)");
    }
  }
  if (ellipses > 1) return a.error(1, "an index can only have a single ellipsis ('...')");
  if (consumed > rank) {
    return a.error(1, "too many indices for a tensor of rank " + std::to_string(rank) + " (" +
                          std::to_string(consumed) + " given)");
  }
  IndexPlan plan;
  Geometry& g = plan.view;
  g = in;
  int64_t dim = 0;
  for (const Arg* item : items) {
    if (item->kind == Arg::Kind::ellipsis) {
      dim += rank - consumed;
    } else if (item->kind == Arg::Kind::none) {
      int64_t stride =
          dim >= static_cast<int64_t>(g.shape.size()) ? 1 : g.shape[dim] * g.strides[dim];
      g.shape.insert(g.shape.begin() + dim, 1);
      g.strides.insert(g.strides.begin() + dim, stride);
      ++dim;
    } else if (item->kind == Arg::Kind::integer) {
      int64_t size = g.shape[dim];
      int64_t i = item->i;
      if (i < -size || i >= size) {
        return a.error(1, "index " + std::to_string(i) + " is out of bounds for dimension " +
                              std::to_string(dim) + " with size " + std::to_string(size));
      }
      if (i < 0) i += size;
      g.offset += i * g.strides[dim];
      g.shape.erase(g.shape.begin() + dim);
      g.strides.erase(g.strides.begin() + dim);
    } else if (item->kind == Arg::Kind::slice) {
      PF_CHECK(item->items.size() == 3);
      int64_t size = g.shape[dim];
      PF_ASSIGN(int64_t step, slice_part(a, item->items[2], 1));
      if (step <= 0) return a.error(1, "slice step must be greater than zero");
      PF_ASSIGN(int64_t start, slice_part(a, item->items[0], 0));
      PF_ASSIGN(int64_t stop, slice_part(a, item->items[1], size));
      if (start < 0) start += size;
      if (stop < 0) stop += size;
      start = std::clamp<int64_t>(start, 0, size);
      stop = std::clamp<int64_t>(stop, start, size);
      g.offset += start * g.strides[dim];
      g.shape[dim] = (stop - start + step - 1) / step;
      g.strides[dim] *= step;
      ++dim;
    } else {
      AdvancedIndex adv{dim, item, {}};
      if (item->kind == Arg::Kind::list) {
        for (const auto& v : item->items) {
          if (v.kind != Arg::Kind::integer) {
            return a.error(1, "a list index must hold ints only");
          }
        }
        adv.shape = {static_cast<int64_t>(item->items.size())};
      } else {
        TensorType t = type_of(item->value);
        if (t.dtype == DType::boolean || t.dtype == DType::uint8) {
          return a.error(1,
                         "boolean mask indexing has a data-dependent output shape and is "
                         "not supported; use torch.where or masked_fill");
        }
        if (!is_integral(t.dtype)) {
          return a.error(1, std::string("tensors used as indices must be integer tensors, got ") +
                                dtype_name(t.dtype));
        }
        adv.shape = t.shape;
      }
      plan.advanced.push_back(std::move(adv));
      ++dim;
    }
  }
  if (plan.advanced.empty()) {
    plan.out_shape = g.shape;
    return plan;
  }
  Shape& bshape = plan.index_shape;
  for (const auto& adv : plan.advanced) {
    auto b = broadcast_shapes(bshape, adv.shape);
    if (!b.ok()) return a.error(1, "index tensors do not broadcast: " + b.error().message);
    bshape = *b;
  }
  bool adjacent = true;
  for (size_t k = 1; k < plan.advanced.size(); ++k) {
    adjacent = adjacent && plan.advanced[k].dim == plan.advanced[k - 1].dim + 1;
  }
  int64_t first = plan.advanced.front().dim;
  int64_t last = plan.advanced.back().dim;
  Shape& out = plan.out_shape;
  if (adjacent) {
    plan.index_pos = static_cast<size_t>(first);
    out.assign(g.shape.begin(), g.shape.begin() + first);
    out.insert(out.end(), bshape.begin(), bshape.end());
    out.insert(out.end(), g.shape.begin() + last + 1, g.shape.end());
  } else {
    out = bshape;
    for (size_t d = 0; d < g.shape.size(); ++d) {
      bool indexed = false;
      for (const auto& adv : plan.advanced) indexed = indexed || adv.dim == static_cast<int64_t>(d);
      if (!indexed) out.push_back(g.shape[d]);
    }
  }
  return plan;
}

// Gathers the advanced-indexed copy from the basic view.
Result<Tensor> gather_advanced(const Tensor& view, const IndexPlan& plan, const ArgReader& a,
                               const std::vector<std::vector<Tensor>>& env) {
  const Shape& bshape = plan.index_shape;
  int64_t bnum = shape_numel(bshape);
  // Storage offset (relative to the view) contributed by the indices, per b.
  std::vector<int64_t> adv_offset(static_cast<size_t>(bnum), 0);
  for (const auto& adv : plan.advanced) {
    Tensor idx = adv.arg->kind == Arg::Kind::value
                     ? env[adv.arg->value][0]
                     : Tensor::from_doubles(DType::int64, adv.shape, [&] {
                         std::vector<double> v;
                         for (const auto& item : adv.arg->items)
                           v.push_back(static_cast<double>(item.i));
                         return v;
                       }());
    Geometry eg = geometry_of(idx);
    // Right-aligned broadcast of the index to bshape (stride 0 on new/size-1 dims).
    Geometry bg{bshape, Strides(bshape.size(), 0), eg.offset};
    size_t lead = bshape.size() - eg.shape.size();
    for (size_t d = 0; d < eg.shape.size(); ++d) {
      if (eg.shape[d] != 1) bg.strides[lead + d] = eg.strides[d];
    }
    std::vector<int64_t> values = read_indices(view_with(idx, bg));
    int64_t size = view.shape()[adv.dim];
    int64_t stride = view.strides()[adv.dim];
    for (int64_t b = 0; b < bnum; ++b) {
      int64_t i = values[b];
      if (i < -size || i >= size) {
        return a.error(1, "index " + std::to_string(i) + " is out of bounds for dimension " +
                              std::to_string(adv.dim) + " with size " + std::to_string(size));
      }
      adv_offset[b] += (i < 0 ? i + size : i) * stride;
    }
  }
  // Each output dim reads either a plain view dim (its stride) or a part of
  // the broadcast index shape (advancing b).
  size_t bstart = plan.index_pos;
  std::vector<int64_t> out_stride(plan.out_shape.size(), 0);
  std::vector<int64_t> b_stride(plan.out_shape.size(), 0);
  Strides bstrides = contiguous_strides(bshape);
  size_t vd = 0;
  for (size_t d = 0; d < plan.out_shape.size(); ++d) {
    if (d >= bstart && d < bstart + bshape.size()) {
      b_stride[d] = bstrides[d - bstart];
      continue;
    }
    auto is_adv = [&](size_t v) {
      for (const auto& adv : plan.advanced) {
        if (adv.dim == static_cast<int64_t>(v)) return true;
      }
      return false;
    };
    while (is_adv(vd)) ++vd;
    out_stride[d] = view.strides()[vd++];
  }
  Tensor out = Tensor::zeros(view.dtype(), plan.out_shape);
  size_t es = dtype_size(view.dtype());
  const std::byte* from = view.data();
  std::byte* to = out.mutable_data();
  int64_t n = out.numel();
  for (int64_t e = 0; e < n; ++e) {
    int64_t rem = e, off = 0, b = 0;
    for (size_t d = plan.out_shape.size(); d-- > 0;) {
      int64_t i = rem % plan.out_shape[d];
      rem /= plan.out_shape[d];
      off += i * out_stride[d];
      b += i * b_stride[d];
    }
    std::memcpy(to + e * static_cast<int64_t>(es),
                from + (off + adv_offset[b]) * static_cast<int64_t>(es), es);
  }
  return out;
}

OpInfo getitem_op() {
  OpInfo op;
  op.name = "getitem";
  op.aliases = {"operator.getitem", "Tensor.__getitem__"};
  op.params = {param_tensor("input"), ParamDef{"index", ParamKind::indices}};
  op.may_alias = true;  // a view unless an index is a tensor/list (then a copy)
  op.doc = "x[index]: ints, slices, None, ... (views); integer tensors gather a copy";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    auto type_of = [&](ValueId v) { return a.env()[v][0]; };
    PF_ASSIGN(IndexPlan plan, plan_getitem(contiguous_geometry(t.shape), a, type_of));
    return std::vector<TensorType>{TensorType{t.dtype, plan.out_shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    const Tensor& t = a.tensor(0);
    auto type_of = [&](ValueId v) {
      const Tensor& x = a.env()[v][0];
      return TensorType{x.dtype(), x.shape()};
    };
    PF_ASSIGN(IndexPlan plan, plan_getitem(geometry_of(t), a, type_of));
    Tensor view = view_with(t, plan.view);
    if (plan.advanced.empty()) return std::vector<Tensor>{view};
    PF_ASSIGN(Tensor out, gather_advanced(view, plan, a, a.env()));
    return std::vector<Tensor>{out};
  };
  return op;
}

// The shape a setitem value takes part with: PyTorch drops the value's
// leading size-1 dims beyond the target's rank (`x[0] = t` with t of shape
// [1, n]), then the value must broadcast to the target without growing it.
Result<Shape> setitem_value_shape(const ArgReader& a, const Shape& target, Shape value) {
  while (value.size() > target.size() && value.front() == 1) value.erase(value.begin());
  auto b = broadcast_shapes(target, value);
  if (!b.ok() || *b != target) {
    return a.error(2, "shape mismatch: value tensor of shape " + shape_str(value) +
                          " cannot be broadcast to indexing result of shape " + shape_str(target));
  }
  return value;
}

template <typename TypeOf>
Result<IndexPlan> plan_setitem(const Geometry& in, const ArgReader& a, TypeOf type_of) {
  PF_ASSIGN(IndexPlan plan, plan_getitem(in, a, type_of));
  if (!plan.advanced.empty()) {
    return a.error(1,
                   "item assignment with list indices is not supported (use ints, slices, "
                   "None, ..., or one index tensor)");
  }
  return plan;
}

// x[mask] = v and x[:, idx] = v (setitem_form.h) on out, a contiguous copy of x:
// masked elements take v; the index form writes the value's slice j at
// position idx[j] (negative indices count from the end; the last duplicate wins).
Status write_tensor_index(const BoundArgs<Tensor>& a, const SetitemTensorIndex& form, Tensor& out) {
  Tensor listed =
      Tensor::zeros(DType::int64, {form.list ? static_cast<int64_t>(form.list->items.size()) : 0});
  for (int64_t k = 0; k < listed.numel(); ++k)
    listed.set_int(k, form.list->items[static_cast<size_t>(k)].i);
  const Tensor& index = form.list ? listed : a.env()[form.tensor][0];
  Tensor value = Tensor::zeros(out.dtype(), {});
  if (a.is_tensor(2)) {
    value = a.tensor(2).to_dtype(out.dtype());
  } else {
    PF_ASSIGN(double v, a.real(2));
    fill(value, v);
  }
  const Shape& shape = out.shape();
  if (form.mask) {
    Shape ms = index.shape();
    ms.resize(shape.size(), 1);
    const Tensor m = broadcast_view(reshape_tensor(index, ms), shape);
    // A one-element value everywhere, else the value over the trailing dims.
    Shape vs = value.numel() == 1 ? Shape{} : value.shape();
    while (vs.size() > shape.size() && vs.front() == 1) vs.erase(vs.begin());
    const Tensor v = broadcast_view(reshape_tensor(value, vs), shape);
    for (int64_t e = 0, n = out.numel(); e < n; ++e) {
      if (m.get_int(e) == 0) continue;
      if (out.dtype() == DType::int64) {
        out.set_int(e, v.get_int(e));
      } else {
        out.set(e, v.get(e));
      }
    }
    return ok_status();
  }
  Shape vs = value.shape();
  while (vs.size() > form.written.size() && vs.front() == 1) vs.erase(vs.begin());
  const Tensor src = broadcast_view(reshape_tensor(value, vs), form.written);
  const std::vector<int64_t> at = read_indices(index);
  const int64_t size = shape[form.dim];
  Geometry g = geometry_of(out);
  Geometry sg = geometry_of(src);
  for (size_t j = 0; j < at.size(); ++j) {
    int64_t i = at[j];
    if (i < -size || i >= size) {
      return a.error(1, "index " + std::to_string(i) + " is out of bounds for dimension " +
                            std::to_string(form.dim) + " with size " + std::to_string(size));
    }
    if (i < 0) i += size;
    Geometry dst = g, from = sg;
    dst.offset += i * g.strides[form.dim];
    from.offset += static_cast<int64_t>(j) * sg.strides[form.dim];
    for (Geometry* x : {&dst, &from}) {
      x->shape.erase(x->shape.begin() + form.dim);
      x->strides.erase(x->strides.begin() + form.dim);
    }
    Tensor part = view_with(out, dst);
    copy_strided(view_with(src, from), part);
  }
  return ok_status();
}

// The graph IR is pure: `x[index] = value` becomes a new tensor, x's copy
// with the indexed view overwritten (value cast to x's dtype, broadcast), and
// the builder rebinds x to it (graph_builder.h).
OpInfo setitem_op() {
  OpInfo op;
  op.name = "setitem";
  op.aliases = {"operator.setitem", "Tensor.__setitem__"};
  op.params = {param_tensor("input"), ParamDef{"index", ParamKind::indices},
               param("value", ParamKind::tensor_or_scalar)};
  op.doc =
      "x[index] = value as a new tensor (ints, slices, None, ...; value broadcast and cast "
      "to x's dtype)";
  // x[i, j] = v with two or more index tensors among full slices (dynamo's
  // operator.setitem(x, (i, j), v)) is index_put(x, (i, j), v), a full slice
  // None there; setitem_tensor_index reads the other tensor forms.
  op.overload = [](std::string_view, std::vector<Arg>& positional,
                   std::vector<std::pair<std::string, Arg>>& keywords) -> std::string {
    if (positional.size() != 3 || !keywords.empty() || !positional[1].is_sequence()) return "";
    std::vector<Arg> items;
    int tensors = 0;
    for (const Arg& item : positional[1].items) {
      const bool whole = item.kind == Arg::Kind::slice &&
                         std::all_of(item.items.begin(), item.items.end(),
                                     [](const Arg& part) { return part.is_none(); });
      if (!item.is_value() && !whole) return "";
      tensors += item.is_value() ? 1 : 0;
      items.push_back(item.is_value() ? item : Arg::make_none());
    }
    if (tensors < 2) return "";
    positional[1] = Arg::make_tuple(std::move(items));
    return "index_put";
  };
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    auto type_of = [&](ValueId v) { return a.env()[v][0]; };
    std::optional<Shape> vshape;
    if (a.is_tensor(2)) vshape = a.tensor(2).shape;
    PF_ASSIGN(auto form, setitem_tensor_index(a, t.shape, type_of, vshape));
    if (form.indexed()) {
      if (!form.mask && a.is_tensor(2) && a.tensor(2).dtype != t.dtype) {
        return a.error(2, std::string("index put requires the value's dtype to be x's (") +
                              dtype_name(t.dtype) + "), got " + dtype_name(a.tensor(2).dtype));
      }
      if (!a.is_tensor(2)) {
        PF_ASSIGN(double v, a.real(2));
        PF_TRY(check_value_fits(a, 2, v, t.dtype));
      }
      return std::vector<TensorType>{t};
    }
    PF_ASSIGN(IndexPlan plan, plan_setitem(contiguous_geometry(t.shape), a, type_of));
    if (a.is_tensor(2)) {
      PF_ASSIGN(Shape s, setitem_value_shape(a, plan.out_shape, a.tensor(2).shape));
      (void)s;
    } else {
      PF_ASSIGN(double v, a.real(2));
      PF_TRY(check_value_fits(a, 2, v, t.dtype));
    }
    return std::vector<TensorType>{t};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    Tensor out = a.tensor(0).contiguous_copy();
    auto type_of = [&](ValueId v) {
      const Tensor& x = a.env()[v][0];
      return TensorType{x.dtype(), x.shape()};
    };
    std::optional<Shape> vshape;
    if (a.is_tensor(2)) vshape = a.tensor(2).shape();
    PF_ASSIGN(auto form, setitem_tensor_index(a, out.shape(), type_of, vshape));
    if (form.indexed()) {
      PF_TRY(write_tensor_index(a, form, out));
      return std::vector<Tensor>{out};
    }
    PF_ASSIGN(IndexPlan plan, plan_setitem(geometry_of(out), a, type_of));
    Tensor view = view_with(out, plan.view);
    if (a.is_tensor(2)) {
      const Tensor& v = a.tensor(2);
      PF_ASSIGN(Shape vs, setitem_value_shape(a, view.shape(), v.shape()));
      copy_strided(broadcast_view(reshape_tensor(v, vs), view.shape()), view);
    } else {
      PF_ASSIGN(double v, a.real(2));
      fill(view, v);
    }
    return std::vector<Tensor>{out};
  };
  return op;
}

template <typename T>
Result<size_t> list_index(const BoundArgs<T>& a, size_t count) {
  PF_ASSIGN(int64_t i, a.integer(1));
  int64_t n = static_cast<int64_t>(count);
  if (i < -n || i >= n) {
    return a.error(1, "index " + std::to_string(i) + " is out of range for a list of " +
                          std::to_string(n) + " tensors");
  }
  return static_cast<size_t>(i < 0 ? i + n : i);
}

OpInfo tuple_get_op() {
  OpInfo op;
  op.name = "tuple_get";
  op.aliases = {"tuple_get"};
  op.params = {param_tensors("input"), param_int("index")};
  op.is_view = true;
  op.doc = "t[i] on a tensor list (split, unbind, ...): the i-th tensor itself";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    auto items = a.tensors(0);
    PF_ASSIGN(size_t i, list_index(a, items.size()));
    return std::vector<TensorType>{*items[i]};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    auto items = a.tensors(0);
    PF_ASSIGN(size_t i, list_index(a, items.size()));
    return std::vector<Tensor>{*items[i]};
  };
  return op;
}

}  // namespace

void register_getitem_ops(OpRegistry& r) {
  r.add(getitem_op());
  r.add(setitem_op());
  r.add(tuple_get_op());
}

}  // namespace pf
