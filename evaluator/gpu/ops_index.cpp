// Indexing by integer tensors, one gather kernel each as PyTorch launches
// (kernels/layout.cu pf_index): index_select (PyTorch's index_select
// kernels), gather, embedding (PyTorch: index_select of weight rows;
// padding_idx only affects gradients) and getitem with tensor or list
// indices (PyTorch's index kernel; lists are uploaded once while the plan is
// built, where PyTorch copies them host-to-device per call). scatter and
// scatter_add copy the input, then one scatter kernel (kernels/scatter.cu,
// atomics for the additions). getitem without tensor indices is a view;
// setitem (item assignment) copies the input and writes the indexed view.
//
// Index values are data: an out-of-range index reads zero (gathers) or is
// skipped (scatters) instead of faulting, where PyTorch would raise a device
// assertion and the CPU reference an error.
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/gpu_views.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "evaluator/gpu/movement.h"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/setitem_form.h"

namespace pf::gpu {
namespace {

using Outputs = Result<std::vector<DeviceTensor>>;

Outputs one(DeviceTensor t) {
  return std::vector<DeviceTensor>{std::move(t)};
}

// 0-d tensors take part as [1], as the CPU reference treats them.
DeviceTensor at_least_1d(const DeviceTensor& t) {
  return t.dim() == 0 ? DeviceTensor::view_of(t, {1}, {1}, t.offset()) : t;
}

Strides without_dim(Strides s, int64_t dim) {
  s[dim] = 0;
  return s;
}

// --- index_select, gather, embedding ----------------------------------------------------

Outputs run_index_select(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  const DeviceTensor x = at_least_1d(a.tensor(0));
  const DeviceTensor& idx = a.tensor(2);
  PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, x.dim()));
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  const DeviceTensor y1 = at_least_1d(y);
  Strides is(static_cast<size_t>(x.dim()), 0);
  is[dim] = idx.dim() == 0 ? 0 : idx.strides()[0];
  GatherIndex g{&idx, is, x.shape()[dim], x.strides()[dim]};
  PF_TRY(add_index_gather(b, x, without_dim(x.strides(), dim), {g}, false, y1));
  return one(y);
}

Outputs run_gather(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  const DeviceTensor x = at_least_1d(a.tensor(0));
  const DeviceTensor idx = at_least_1d(a.tensor(2));
  PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, x.dim()));
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  GatherIndex g{&idx, idx.strides(), x.shape()[dim], x.strides()[dim]};
  PF_TRY(add_index_gather(b, x, without_dim(x.strides(), dim), {g}, false, at_least_1d(y)));
  return one(y);
}

Outputs run_embedding(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  const DeviceTensor& idx = a.tensor(0);
  const DeviceTensor& w = a.tensor(1);
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  Strides src(static_cast<size_t>(idx.dim()), 0), is = idx.strides();
  src.push_back(w.strides()[1]);
  is.push_back(0);
  GatherIndex g{&idx, is, w.shape()[0], w.strides()[0]};
  PF_TRY(add_index_gather(b, w, src, {g}, false, y));
  return one(y);
}

Status no_max_norm(const ArgReader& a) {
  if (!a.is_none(3)) {
    return make_error(
        ErrorCode::unsupported,
        "embedding with max_norm (which renormalises weight in place) has no GPU baseline");
  }
  return ok_status();
}

// --- scatter, scatter_add -----------------------------------------------------------------

GpuOpFn scatter_fn(bool add) {
  return [add](const GpuArgs& a, const std::vector<TensorType>&, PlanBuilder& b) -> Outputs {
    PF_ASSIGN(DeviceTensor y, materialize(b, a.tensor(0), a.tensor(0).dtype()));
    const DeviceTensor y1 = at_least_1d(y);
    const DeviceTensor idx = at_least_1d(a.tensor(2));
    PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, y1.dim()));
    PfScatterParams p{};
    p.reduce = add ? PF_SCATTER_ADD : PF_SCATTER_ASSIGN;
    if (!add && !a.is_none(4)) {
      PF_ASSIGN(std::string r, a.string(4));
      if (r != "add" && r != "multiply") return a.error(4, "reduce must be 'add' or 'multiply'");
      p.reduce = r == "add" ? PF_SCATTER_ADD : PF_SCATTER_MULTIPLY;
    }
    Layout layout{idx.shape(), {without_dim(y1.strides(), dim), idx.strides()}};
    std::vector<size_t> sizes = {y1.element_size(), idx.element_size()};
    if (a.is_tensor(3)) {
      const DeviceTensor src = at_least_1d(a.tensor(3));
      b.use(src);
      p.src = src.data_ptr();
      p.src_dtype = static_cast<int>(src.dtype());
      // src is read at the index's coordinates (its shape may be larger).
      layout.strides.push_back(src.strides());
      sizes.push_back(src.element_size());
    } else {
      const Arg& v = a.arg(3);
      PF_ASSIGN(p.value, a.real(3));
      p.value_i = v.kind == Arg::Kind::integer   ? v.i
                  : v.kind == Arg::Kind::boolean ? (v.b ? 1 : 0)
                                                 : static_cast<int64_t>(p.value);
      layout.strides.push_back(Strides(idx.shape().size(), 0));
      sizes.push_back(1);
    }
    b.use(idx);
    p.out = y1.data_ptr();
    p.index = idx.data_ptr();
    p.index_dtype = static_cast<int>(idx.dtype());
    p.n = idx.numel();
    p.dim_size = y1.shape()[dim];
    p.dim_stride = y1.strides()[dim];
    if (p.n == 0) return one(y);
    PF_ASSIGN(p.oc, make_offset_calc(layout, sizes));
    PF_TRY(b.add_kernel("scatter.cu", y.dtype(), "pf_scatter",
                        linear_launch(p.n, PF_EW_THREADS, PF_EW_THREADS), p));
    return one(y);
  };
}

// --- getitem ------------------------------------------------------------------------------------

struct AdvancedIndex {
  int64_t dim = 0;  // in the basic-indexed view
  DeviceTensor index;
};

struct IndexPlan {
  DeviceTensor view;  // after ints, slices, None and Ellipsis
  std::vector<AdvancedIndex> advanced;
};

// A literal list of ints as an int64 device tensor (uploaded now).
Result<DeviceTensor> upload_list(PlanBuilder& b, const Arg& list) {
  std::vector<double> v;
  for (const auto& item : list.items) v.push_back(static_cast<double>(item.i));
  Tensor host = Tensor::from_doubles(DType::int64, {static_cast<int64_t>(v.size())}, v);
  PF_ASSIGN(DeviceTensor d, b.runtime().upload(host, "getitem list index"));
  b.use(d);
  return d;
}

// The basic part of the index (argument 1) as a view of x, and where the
// advanced indices go (the CPU op's plan_getitem; bounds and kinds were
// checked at inference).
Result<IndexPlan> plan_index(const GpuArgs& a, const DeviceTensor& x, PlanBuilder& b) {
  const Arg& index = a.arg(1);
  std::vector<const Arg*> items;
  if (index.kind == Arg::Kind::tuple) {
    for (const auto& item : index.items) items.push_back(&item);
  } else {
    items.push_back(&index);
  }
  int64_t consumed = 0;
  for (const Arg* item : items) {
    consumed += item->kind != Arg::Kind::ellipsis && item->kind != Arg::Kind::none ? 1 : 0;
  }
  Shape shape = x.shape();
  Strides strides = x.strides();
  int64_t offset = x.offset();
  IndexPlan plan;
  int64_t dim = 0;
  for (const Arg* item : items) {
    switch (item->kind) {
      case Arg::Kind::ellipsis:
        dim += x.dim() - consumed;
        break;
      case Arg::Kind::none: {
        const int64_t st =
            dim >= static_cast<int64_t>(shape.size()) ? 1 : shape[dim] * strides[dim];
        shape.insert(shape.begin() + dim, 1);
        strides.insert(strides.begin() + dim, st);
        ++dim;
        break;
      }
      case Arg::Kind::integer: {
        const int64_t i = item->i < 0 ? item->i + shape[dim] : item->i;
        offset += i * strides[dim];
        shape.erase(shape.begin() + dim);
        strides.erase(strides.begin() + dim);
        break;
      }
      case Arg::Kind::slice: {
        const int64_t size = shape[dim];
        const auto part = [&](const Arg& p, int64_t fallback) {
          return p.is_none() ? fallback : p.i;
        };
        const int64_t step = part(item->items[2], 1);
        int64_t start = part(item->items[0], 0), stop = part(item->items[1], size);
        if (start < 0) start += size;
        if (stop < 0) stop += size;
        start = std::clamp<int64_t>(start, 0, size);
        stop = std::clamp<int64_t>(stop, start, size);
        offset += start * strides[dim];
        shape[dim] = (stop - start + step - 1) / step;
        strides[dim] *= step;
        ++dim;
        break;
      }
      case Arg::Kind::list: {
        PF_ASSIGN(DeviceTensor t, upload_list(b, *item));
        plan.advanced.push_back({dim++, t});
        break;
      }
      case Arg::Kind::value:
        plan.advanced.push_back({dim++, a.env()[item->value][0]});
        break;
      default:
        return a.error(1, "unsupported index");
    }
  }
  plan.view = DeviceTensor::view_of(x, shape, strides, offset);
  return plan;
}

Outputs run_advanced_getitem(const GpuArgs& a, const TensorType& out, PlanBuilder& b) {
  PF_ASSIGN(IndexPlan plan, plan_index(a, a.tensor(0), b));
  const DeviceTensor& v = plan.view;
  Shape bshape;
  bool adjacent = true;
  for (size_t k = 0; k < plan.advanced.size(); ++k) {
    PF_ASSIGN(bshape, broadcast_shapes(bshape, plan.advanced[k].index.shape()));
    adjacent = adjacent && (k == 0 || plan.advanced[k].dim == plan.advanced[k - 1].dim + 1);
  }
  const size_t bstart = adjacent ? static_cast<size_t>(plan.advanced.front().dim) : 0;
  std::vector<bool> indexed(static_cast<size_t>(v.dim()), false);
  for (const auto& adv : plan.advanced) indexed[adv.dim] = true;
  const size_t rank = out.shape.size();
  Strides src(rank, 0);
  std::vector<GatherIndex> gathers;
  for (const auto& adv : plan.advanced) {
    Strides bs = broadcast_strides(adv.index.shape(), adv.index.strides(), bshape);
    Strides st(rank, 0);
    for (size_t d = 0; d < bs.size(); ++d) st[bstart + d] = bs[d];
    gathers.push_back({&adv.index, st, v.shape()[adv.dim], v.strides()[adv.dim]});
  }
  size_t vd = 0;
  for (size_t d = 0; d < rank; ++d) {
    if (d >= bstart && d < bstart + bshape.size()) continue;
    while (indexed[vd]) ++vd;
    src[d] = v.strides()[vd++];
  }
  PF_ASSIGN(DeviceTensor y, b.allocate(out));
  PF_TRY(add_index_gather(b, v, src, gathers, true, y));
  return one(y);
}

Outputs run_getitem(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  if (a.arg(1).references_values() || a.arg(1).kind == Arg::Kind::list) {
    return run_advanced_getitem(a, out[0], b);
  }
  if (a.arg(1).kind == Arg::Kind::tuple) {
    for (const auto& item : a.arg(1).items) {
      if (item.kind == Arg::Kind::list) return run_advanced_getitem(a, out[0], b);
    }
  }
  return run_view_probe(*OpRegistry::builtin().find("getitem"), a, out);
}

// setitem: a copy of the input, then one copy kernel writing the value
// (broadcast, cast) into the indexed view of that copy. A number is uploaded
// once as a 0-d tensor of the input's dtype, converted as the CPU reference
// converts it.
// A 1-d index viewed along dim of `shape` (stride 0 elsewhere): scatter's index.
DeviceTensor index_along(const DeviceTensor& index, const Shape& shape, int64_t dim) {
  const DeviceTensor i1 = at_least_1d(index);
  Strides st(shape.size(), 0);
  st[dim] = i1.strides()[0];
  return DeviceTensor::view_of(i1, shape, st, i1.offset());
}

// x[mask] = v as masked_fill (the mask viewed over x's trailing dims), or
// as where for a value over the dims after the mask's;
// x[:, idx] = v as one scatter, the index wrapped first (remainder by the
// dim's size) as PyTorch accepts negative indices.
Outputs run_setitem_tensor_index(const GpuArgs& a, const SetitemTensorIndex& form, PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  DeviceTensor index;
  if (form.list) {
    PF_ASSIGN(index, upload_list(b, *form.list));
  } else {
    index = a.env()[form.tensor][0];
  }
  if (form.mask) {
    Shape ms = index.shape();
    Strides mst = index.strides();
    ms.resize(x.shape().size(), 1);
    mst.resize(x.shape().size(), 0);
    const DeviceTensor m = DeviceTensor::view_of(index, ms, mst, index.offset());
    CallArg value = a.arg(2);
    if (a.is_tensor(2) && a.tensor(2).numel() != 1) {
      // A value over the trailing dims: where(mask, value, x), the value
      // cast to x's dtype and broadcast over x.
      PF_ASSIGN(DeviceTensor v, materialize(b, a.tensor(2), x.dtype()));
      Shape vs = v.shape();
      Strides vst = v.strides();
      while (vs.size() > x.shape().size() && vs.front() == 1) {
        vs.erase(vs.begin());
        vst.erase(vst.begin());
      }
      const DeviceTensor spread =
          DeviceTensor::view_of(v, x.shape(), broadcast_strides(vs, vst, x.shape()), v.offset());
      PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "where", {m, spread, x}));
      return one(y);
    }
    if (a.is_tensor(2)) {
      const DeviceTensor& v = a.tensor(2);
      value = DeviceTensor::view_of(v, {}, {}, v.offset());
    }
    PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "masked_fill", {x, m, value}));
    return one(y);
  }
  PF_ASSIGN(DeviceTensor wrapped,
            call_gpu_op1(b, "remainder", {index, Arg::make_int(x.shape()[form.dim])}));
  const DeviceTensor idx = index_along(wrapped, form.written, form.dim);
  CallArg value = a.arg(2);
  if (a.is_tensor(2)) {
    DeviceTensor v = a.tensor(2);
    if (v.dtype() != x.dtype()) {
      PF_ASSIGN(v, materialize(b, v, x.dtype()));
    }
    Shape vs = v.shape();
    Strides vst = v.strides();
    while (vs.size() > form.written.size() && vs.front() == 1) {
      vs.erase(vs.begin());
      vst.erase(vst.begin());
    }
    value = DeviceTensor::view_of(v, form.written, broadcast_strides(vs, vst, form.written),
                                  v.offset());
  }
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "scatter", {x, Arg::make_int(form.dim), idx, value}));
  return one(y);
}

Outputs run_setitem(const GpuArgs& a, const std::vector<TensorType>&, PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  {
    const auto type_of = [&](ValueId v) {
      const DeviceTensor& t = a.env()[v][0];
      return TensorType{t.dtype(), t.shape()};
    };
    std::optional<Shape> vshape;
    if (a.is_tensor(2)) vshape = a.tensor(2).shape();
    PF_ASSIGN(auto form, setitem_tensor_index(a, x.shape(), type_of, vshape));
    if (form.indexed()) return run_setitem_tensor_index(a, form, b);
  }
  PF_ASSIGN(DeviceTensor y, materialize(b, x, x.dtype()));
  PF_ASSIGN(IndexPlan plan, plan_index(a, y, b));
  const DeviceTensor& view = plan.view;
  DeviceTensor value;
  if (a.is_tensor(2)) {
    value = a.tensor(2);
  } else {
    PF_ASSIGN(double v, a.real(2));
    Tensor host = Tensor::zeros(x.dtype(), {});
    layout::fill(host, v);
    PF_ASSIGN(value, b.runtime().upload(host, "setitem value"));
    b.use(value);
  }
  // Leading size-1 dims beyond the view's rank drop out (as PyTorch).
  Shape vs = value.shape();
  Strides vst = value.strides();
  while (vs.size() > view.shape().size() && vs.front() == 1) {
    vs.erase(vs.begin());
    vst.erase(vst.begin());
  }
  const DeviceTensor src = DeviceTensor::view_of(
      value, view.shape(), broadcast_strides(vs, vst, view.shape()), value.offset());
  PF_TRY(copy_into(b, src, view));
  return one(y);
}

// take_along_dim as PyTorch: input and indices broadcast (stride 0) except
// along dim, then one gather; dim=None gathers from the flattened input.
Outputs run_take_along_dim(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  const DeviceTensor& idx = a.tensor(1);
  if (a.is_none(2)) {
    PF_ASSIGN(DeviceTensor flat, call_gpu_op1(b, "reshape", {x, int_list({-1})}));
    PF_ASSIGN(DeviceTensor flat_idx, call_gpu_op1(b, "reshape", {idx, int_list({-1})}));
    PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "gather", {flat, Arg::make_int(0), flat_idx}));
    return one(y);
  }
  PF_ASSIGN(int64_t dim, layout::dim_arg(a, 2, x.dim()));
  const Shape& shape = out[0].shape;
  Shape src_shape = shape;
  src_shape[dim] = x.shape()[dim];
  const DeviceTensor xs = DeviceTensor::view_of(
      x, src_shape, broadcast_strides(x.shape(), x.strides(), src_shape), x.offset());
  const DeviceTensor is = DeviceTensor::view_of(
      idx, shape, broadcast_strides(idx.shape(), idx.strides(), shape), idx.offset());
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "gather", {xs, Arg::make_int(dim), is}));
  return one(y);
}

// index_fill / index_add through the scatter kernels: the 1-d index viewed
// along dim (stride 0 elsewhere) over the slices it names. index_fill wraps
// negative indices first (remainder by the dim's size), as PyTorch accepts
// them; index_add scales source by alpha first when alpha is not 1.

Outputs run_index_fill(const GpuArgs& a, const std::vector<TensorType>&, PlanBuilder& b) {
  const DeviceTensor x = at_least_1d(a.tensor(0));
  PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, x.dim()));
  PF_ASSIGN(DeviceTensor wrapped,
            call_gpu_op1(b, "remainder", {a.tensor(2), Arg::make_int(x.shape()[dim])}));
  Shape shape = x.shape();
  shape[dim] = at_least_1d(wrapped).shape()[0];
  const DeviceTensor idx = index_along(wrapped, shape, dim);
  CallArg value = a.arg(3);
  if (a.is_tensor(3)) {
    PF_ASSIGN(DeviceTensor v, materialize(b, a.tensor(3), x.dtype()));
    value = DeviceTensor::view_of(v, shape, Strides(shape.size(), 0), v.offset());
  }
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "scatter", {x, Arg::make_int(dim), idx, value}));
  if (a.tensor(0).dim() == 0) y = DeviceTensor::view_of(y, {}, {}, y.offset());
  return one(y);
}

Outputs run_index_add(const GpuArgs& a, const std::vector<TensorType>&, PlanBuilder& b) {
  DeviceTensor x = at_least_1d(a.tensor(0));
  PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, x.dim()));
  DeviceTensor src = at_least_1d(a.tensor(3));
  // Half-precision sums accumulate in float32 and round once (the CPU
  // reference's single rounding; fp16 atomics rounding at every duplicate
  // index miss t = -5 there).
  const DType dtype = x.dtype();
  const bool half = dtype == DType::float16 || dtype == DType::bfloat16;
  if (half) {
    PF_ASSIGN(x, materialize(b, x, DType::float32));
    PF_ASSIGN(src, materialize(b, src, DType::float32));
  }
  const Arg& alpha = a.arg(4);
  const bool unit = (alpha.kind == Arg::Kind::integer && alpha.i == 1) ||
                    (alpha.kind == Arg::Kind::real && alpha.f == 1.0) ||
                    (alpha.kind == Arg::Kind::boolean && alpha.b);
  if (!unit) {
    PF_ASSIGN(src, call_gpu_op1(b, "mul", {src, alpha}));
  }
  const DeviceTensor idx = index_along(a.tensor(2), src.shape(), dim);
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "scatter_add", {x, Arg::make_int(dim), idx, src}));
  if (half) {
    PF_ASSIGN(y, materialize(b, y, dtype));
  }
  if (a.tensor(0).dim() == 0) y = DeviceTensor::view_of(y, {}, {}, y.offset());
  return one(y);
}

}  // namespace

// F.one_hot composed: unsqueeze(input, -1) == arange(num_classes), as int64.
// An index outside [0, num_classes) gives a zero row (the CPU reference and
// PyTorch report it as an error).
Result<std::vector<DeviceTensor>> run_one_hot(const GpuArgs& a, const std::vector<TensorType>&,
                                              PlanBuilder& b) {
  PF_ASSIGN(int64_t classes, a.integer(1));
  PF_ASSIGN(DeviceTensor column, call_gpu_op1(b, "unsqueeze", {a.tensor(0), Arg::make_int(-1)}));
  PF_ASSIGN(DeviceTensor ids,
            call_gpu_op1(b, "arange", {Arg::make_int(0), Arg::make_int(classes)}));
  PF_ASSIGN(DeviceTensor hit, call_gpu_op1(b, "eq", {column, ids}));
  PF_ASSIGN(DeviceTensor y, materialize(b, hit, DType::int64));
  return std::vector<DeviceTensor>{y};
}

void register_gpu_index_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"one_hot", run_one_hot, {DType::int64}});
  r.add(GpuOpInfo{"index_select", run_index_select, all_dtypes()});
  r.add(GpuOpInfo{"gather", run_gather, all_dtypes()});
  r.add(GpuOpInfo{"take_along_dim", run_take_along_dim, all_dtypes()});
  r.add(GpuOpInfo{"index_fill", run_index_fill, all_dtypes()});
  r.add(GpuOpInfo{"index_add", run_index_add, all_dtypes()});
  r.add(GpuOpInfo{"embedding", run_embedding, all_dtypes(), no_max_norm});
  r.add(GpuOpInfo{"scatter", scatter_fn(false), all_dtypes()});
  r.add(GpuOpInfo{"scatter_add", scatter_fn(true), all_dtypes()});
  // Replaces the view family's basic-only entry: tensor and list indices gather.
  r.add(GpuOpInfo{"getitem", run_getitem, all_dtypes()});
  r.add(GpuOpInfo{"setitem", run_setitem, all_dtypes()});
}

}  // namespace pf::gpu
