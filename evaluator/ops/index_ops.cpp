// Indexing by integer tensors: index_select, gather, take_along_dim, scatter,
// scatter_add, index_fill, index_add, embedding, one_hot. Index values are data, so their range is
// checked on the CPU and reported as an error naming the offending value (never a crash).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

using namespace layout;

Status require_index_dtype(const ArgReader& a, size_t i, DType t, bool int64_only) {
  bool ok = int64_only ? t == DType::int64 : (t == DType::int64 || t == DType::int32);
  if (ok) return ok_status();
  return a.error(i, std::string("expected an index tensor of dtype ") +
                        (int64_only ? "int64" : "int64 or int32") + ", got " + dtype_name(t));
}

Error index_out_of_range(const ArgReader& a, size_t i, int64_t v, int64_t dim, int64_t size) {
  return a.error(i, "index " + std::to_string(v) + " is out of bounds for dimension " +
                        std::to_string(dim) + " with size " + std::to_string(size));
}

// --- index_select ---------------------------------------------------------------

OpInfo index_select_op() {
  OpInfo op;
  op.name = "index_select";
  op.aliases = {"torch.index_select", "Tensor.index_select"};
  op.params = {param_tensor("input"), param_int("dim"), param_tensor("index")};
  op.doc = "the entries of one dim listed by a 1-d integer index (a copy)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    const TensorType& idx = a.tensor(2);
    PF_TRY(require_index_dtype(a, 2, idx.dtype, false));
    if (idx.shape.size() > 1) {
      return a.error(2, "expects a 0-d or 1-d index, got shape " + shape_str(idx.shape));
    }
    PF_ASSIGN(int64_t dim, dim_arg(a, 1, static_cast<int64_t>(t.shape.size())));
    if (t.shape.empty()) {
      if (shape_numel(idx.shape) != 1) return a.error(2, "a 0-d input takes exactly one index");
      return std::vector<TensorType>{t};
    }
    Shape out = t.shape;
    out[dim] = shape_numel(idx.shape);
    return std::vector<TensorType>{TensorType{t.dtype, out}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& t = a.tensor(0);
    Tensor src = t.dim() == 0 ? reshape_tensor(t, {1}) : t;
    PF_ASSIGN(int64_t dim, dim_arg(a, 1, src.dim()));
    std::vector<int64_t> index = read_indices(a.tensor(2));
    int64_t size = src.shape()[dim];
    for (int64_t v : index) {
      if (v < 0 || v >= size) return index_out_of_range(a, 2, v, dim, size);
    }
    return std::vector<Tensor>{reshape_tensor(take_along(src, dim, index, 0), out[0].shape)};
  };
  return op;
}

// --- gather / scatter ---------------------------------------------------------------

// Checks gather/scatter's index shape against the input (and src) shapes;
// 0-d tensors count as [1], as the CPU loops treat them.
template <typename T>
Status check_index_shape(const BoundArgs<T>& a, int64_t dim, const Shape& in_raw,
                         const Shape& idx_raw, const Shape* src_raw) {
  auto as_1d = [](const Shape& s) { return s.empty() ? Shape{1} : s; };
  Shape in = as_1d(in_raw), idx = as_1d(idx_raw);
  Shape src = src_raw ? as_1d(*src_raw) : Shape{};
  if (idx.size() != in.size()) {
    return a.error(2, "index must have the same rank as input (" + std::to_string(in_raw.size()) +
                          "), got shape " + shape_str(idx_raw));
  }
  if (src_raw && src.size() != idx.size()) {
    return a.error(3, "src must have the same rank as index, got shape " + shape_str(*src_raw));
  }
  for (size_t d = 0; d < idx.size(); ++d) {
    if (static_cast<int64_t>(d) != dim && idx[d] > in[d]) {
      return a.error(2, "index shape " + shape_str(idx_raw) + " exceeds input shape " +
                            shape_str(in_raw) + " at dim " + std::to_string(d));
    }
    if (src_raw && idx[d] > src[d]) {
      return a.error(3, "index shape " + shape_str(idx_raw) + " exceeds src shape " +
                            shape_str(*src_raw) + " at dim " + std::to_string(d));
    }
  }
  return ok_status();
}

// Storage offset (relative to t's first element) of the element at the
// row-major position `e` of `shape`, with dim `dim` replaced by `at`.
int64_t offset_with(const Shape& shape, const Strides& strides, int64_t e, int64_t dim,
                    int64_t at) {
  int64_t off = 0;
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t i = e % shape[d];
    e /= shape[d];
    off += (static_cast<int64_t>(d) == dim ? at : i) * strides[d];
  }
  return off;
}

OpInfo gather_op() {
  OpInfo op;
  op.name = "gather";
  op.aliases = {"torch.gather", "Tensor.gather"};
  op.params = {param_tensor("input"), param_int("dim"), param_tensor("index"),
               param_ignored("sparse_grad", Arg::make_bool(false))};
  op.doc = "out[i][j] = input[index[i][j]][j] (for dim 0): picks along dim by an int64 index";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    const TensorType& idx = a.tensor(2);
    PF_TRY(require_index_dtype(a, 2, idx.dtype, true));
    PF_ASSIGN(int64_t dim, dim_arg(a, 1, static_cast<int64_t>(t.shape.size())));
    PF_TRY(check_index_shape(a, dim, t.shape, idx.shape, nullptr));
    return std::vector<TensorType>{TensorType{t.dtype, idx.shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out_types) -> Result<std::vector<Tensor>> {
    const Tensor& t = a.tensor(0);
    Tensor src = t.dim() == 0 ? reshape_tensor(t, {1}) : t;
    PF_ASSIGN(int64_t dim, dim_arg(a, 1, src.dim()));
    const Shape& ishape = out_types[0].shape;
    Shape walk = ishape.empty() ? Shape{1} : ishape;
    std::vector<int64_t> index = read_indices(a.tensor(2));
    int64_t size = src.shape()[dim];
    Tensor out = Tensor::zeros(t.dtype(), ishape);
    size_t es = dtype_size(t.dtype());
    for (int64_t e = 0; e < static_cast<int64_t>(index.size()); ++e) {
      int64_t v = index[e];
      if (v < 0 || v >= size) return index_out_of_range(a, 2, v, dim, size);
      int64_t off = offset_with(walk, src.strides(), e, dim, v);
      std::memcpy(out.mutable_data() + e * static_cast<int64_t>(es),
                  src.data() + off * static_cast<int64_t>(es), es);
    }
    return std::vector<Tensor>{out};
  };
  return op;
}

enum class ScatterReduce : uint8_t { assign, add, multiply };

// Values of t as V (double, or int64 for exact integer math), row-major.
template <typename V>
std::vector<V> values_of(const Tensor& t) {
  if constexpr (std::is_same_v<V, double>) {
    return t.to_doubles();
  } else {
    return read_indices(t);
  }
}

template <typename V>
Tensor tensor_of(DType dtype, const Shape& shape, const std::vector<V>& v) {
  if constexpr (std::is_same_v<V, double>) {
    return Tensor::from_doubles(dtype, shape, v);
  } else {
    Tensor t = Tensor::zeros(DType::int64, shape);
    if (!v.empty()) std::memcpy(t.mutable_data(), v.data(), v.size() * sizeof(int64_t));
    return dtype == DType::int64 ? t : t.to_dtype(dtype);
  }
}

template <typename V>
Result<Tensor> scatter_values(const BoundArgs<Tensor>& a, int64_t dim, const Tensor* src,
                              double value, ScatterReduce reduce) {
  const Tensor& t = a.tensor(0);
  const Tensor& idx_t = a.tensor(2);
  std::vector<V> out = values_of<V>(t);
  std::vector<V> src_v = src ? values_of<V>(*src) : std::vector<V>{};
  std::vector<int64_t> index = read_indices(idx_t);
  Shape in_shape = t.dim() == 0 ? Shape{1} : t.shape();
  Shape idx_shape = idx_t.dim() == 0 ? Shape{1} : idx_t.shape();
  Strides in_strides = contiguous_strides(in_shape);
  Strides src_strides;
  if (src) src_strides = contiguous_strides(src->dim() == 0 ? Shape{1} : src->shape());
  int64_t size = in_shape[dim];
  for (int64_t e = 0; e < static_cast<int64_t>(index.size()); ++e) {
    int64_t v = index[e];
    if (v < 0 || v >= size) return index_out_of_range(a, 2, v, dim, size);
    int64_t dst = offset_with(idx_shape, in_strides, e, dim, v);
    V x = src ? src_v[offset_with(idx_shape, src_strides, e, -1, 0)] : static_cast<V>(value);
    switch (reduce) {
      case ScatterReduce::assign:
        out[dst] = x;
        break;
      case ScatterReduce::add:
        out[dst] += x;
        break;
      case ScatterReduce::multiply:
        out[dst] *= x;
        break;
    }
  }
  return tensor_of<V>(t.dtype(), t.shape(), out);
}

OpInfo scatter_like_op(bool add) {
  OpInfo op;
  op.name = add ? "scatter_add" : "scatter";
  op.aliases = add ? std::vector<std::string>{"torch.scatter_add", "Tensor.scatter_add",
                                              "Tensor.scatter_add_"}
                   : std::vector<std::string>{"torch.scatter", "Tensor.scatter", "Tensor.scatter_"};
  op.params = {param_tensor("input"), param_int("dim"), param_tensor("index")};
  if (add) {
    op.params.push_back(param_tensor("src"));
    op.doc = "a copy of input with src added at the positions index gives along dim";
  } else {
    // scatter(input, dim, index, src) and scatter(input, dim, index, value)
    // are one op: a scalar src is the value; `value=` is renamed to src.
    op.params.push_back(ParamDef{"src", ParamKind::tensor_or_scalar});
    ParamDef reduce = param_opt_string("reduce");
    reduce.keyword_only = true;
    op.params.push_back(reduce);
    op.overload = [](std::string_view, std::vector<Arg>&,
                     std::vector<std::pair<std::string, Arg>>& keywords) {
      for (auto& kw : keywords) {
        if (kw.first == "value") kw.first = "src";
      }
      return std::string();
    };
    op.doc = "a copy of input with src (a tensor or a scalar) written at the positions index gives";
  }
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    const TensorType& idx = a.tensor(2);
    PF_TRY(require_index_dtype(a, 2, idx.dtype, true));
    PF_ASSIGN(int64_t dim, dim_arg(a, 1, static_cast<int64_t>(t.shape.size())));
    const TensorType* src = a.is_tensor(3) ? &a.tensor(3) : nullptr;
    if (src && src->dtype != t.dtype) {
      return a.error(3, std::string("expected src of dtype ") + dtype_name(t.dtype) + ", got " +
                            dtype_name(src->dtype));
    }
    if (!src) PF_TRY(a.real(3));
    PF_TRY(check_index_shape(a, dim, t.shape, idx.shape, src ? &src->shape : nullptr));
    return std::vector<TensorType>{t};
  };
  op.cpu = [add](const BoundArgs<Tensor>& a,
                 const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    const Tensor& t = a.tensor(0);
    PF_ASSIGN(int64_t dim, dim_arg(a, 1, t.dim()));
    const Tensor* src = a.is_tensor(3) ? &a.tensor(3) : nullptr;
    double value = 0;
    ScatterReduce reduce = add ? ScatterReduce::add : ScatterReduce::assign;
    if (!add) {
      if (!src) {
        PF_ASSIGN(value, a.real(3));
      }
      if (!a.is_none(4)) {
        PF_ASSIGN(std::string r, a.string(4));
        if (r == "add") {
          reduce = ScatterReduce::add;
        } else if (r == "multiply") {
          reduce = ScatterReduce::multiply;
        } else {
          return a.error(4, "reduce must be 'add' or 'multiply', got '" + r + "'");
        }
      }
    }
    Result<Tensor> out = is_floating(t.dtype()) || t.dtype() == DType::boolean
                             ? scatter_values<double>(a, dim, src, value, reduce)
                             : scatter_values<int64_t>(a, dim, src, value, reduce);
    if (!out.ok()) return std::move(out).error();
    return std::vector<Tensor>{std::move(*out)};
  };
  return op;
}

// --- take_along_dim --------------------------------------------------------------------

// The shapes take_along_dim gathers over: input and indices broadcast except
// along dim, where each keeps its own size (PyTorch's rule).
template <typename T>
Result<std::pair<Shape, Shape>> take_shapes(const BoundArgs<T>& a, const Shape& in,
                                            const Shape& idx, int64_t dim) {
  if (in.size() != idx.size()) {
    return a.error(1, "input and indices should have the same number of dimensions, got " +
                          shape_str(in) + " and " + shape_str(idx));
  }
  Shape self = in;
  self[dim] = idx[dim];
  auto b = broadcast_shapes(self, idx);
  if (!b.ok()) return a.error(1, "indices do not broadcast with input: " + b.error().message);
  Shape src = *b;
  src[dim] = in[dim];
  return std::make_pair(*b, src);
}

OpInfo take_along_dim_op() {
  OpInfo op;
  op.name = "take_along_dim";
  op.aliases = {"torch.take_along_dim", "Tensor.take_along_dim"};
  op.params = {param_tensor("input"), param_tensor("indices"), param_opt_int("dim")};
  op.doc = "gather along dim with input and indices broadcast (flattened when dim is None)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    const TensorType& idx = a.tensor(1);
    PF_TRY(require_index_dtype(a, 1, idx.dtype, true));
    if (a.is_none(2)) return std::vector<TensorType>{{t.dtype, {shape_numel(idx.shape)}}};
    PF_ASSIGN(int64_t dim, dim_arg(a, 2, static_cast<int64_t>(t.shape.size())));
    PF_ASSIGN(auto shapes, take_shapes(a, t.shape, idx.shape, dim));
    return std::vector<TensorType>{{t.dtype, shapes.first}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out_types) -> Result<std::vector<Tensor>> {
    const Tensor& t = a.tensor(0);
    const Shape& shape = out_types[0].shape;
    Tensor src;
    Tensor idx;
    int64_t dim = 0;
    if (a.is_none(2)) {
      src = reshape_tensor(t, {t.numel()});
      idx = reshape_tensor(a.tensor(1), shape);
    } else {
      PF_ASSIGN(dim, dim_arg(a, 2, t.dim()));
      PF_ASSIGN(auto shapes, take_shapes(a, t.shape(), a.tensor(1).shape(), dim));
      src = broadcast_view(t, shapes.second);
      idx = broadcast_view(a.tensor(1), shape);
    }
    std::vector<int64_t> index = read_indices(idx);
    const int64_t size = src.shape()[dim];
    Tensor out = Tensor::zeros(t.dtype(), shape);
    const auto es = static_cast<int64_t>(dtype_size(t.dtype()));
    for (int64_t e = 0; e < static_cast<int64_t>(index.size()); ++e) {
      const int64_t v = index[e];
      if (v < 0 || v >= size) return index_out_of_range(a, 1, v, dim, size);
      std::memcpy(out.mutable_data() + e * es,
                  src.data() + offset_with(shape, src.strides(), e, dim, v) * es, es);
    }
    return std::vector<Tensor>{out};
  };
  return op;
}

// --- index_fill / index_add -----------------------------------------------------------

// The positions along dim a 0-d or 1-d int64 index names; index_fill wraps
// negative ones (as PyTorch), index_add does not.
template <typename T>
Result<std::vector<int64_t>> dim_positions(const BoundArgs<T>& a, const Tensor& index, int64_t dim,
                                           int64_t size, bool wrap) {
  std::vector<int64_t> out = read_indices(index);
  for (int64_t& v : out) {
    if (wrap && v < 0 && v >= -size) v += size;
    if (v < 0 || v >= size) return index_out_of_range(a, 2, v, dim, size);
  }
  return out;
}

Status check_dim_index(const ArgReader& a, const TensorType& idx) {
  PF_TRY(require_index_dtype(a, 2, idx.dtype, true));
  if (idx.shape.size() > 1)
    return a.error(2, "index must be 0-d or 1-d, got " + shape_str(idx.shape));
  return ok_status();
}

OpInfo index_fill_op() {
  OpInfo op;
  op.name = "index_fill";
  op.aliases = {"torch.index_fill", "Tensor.index_fill", "Tensor.index_fill_"};
  op.params = {param_tensor("input"), param_int("dim"), param_tensor("index"),
               ParamDef{"value", ParamKind::tensor_or_scalar}};
  op.doc = "a copy of input with the entries index names along dim set to value";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    PF_TRY(check_dim_index(a, a.tensor(2)));
    PF_TRY(dim_arg(a, 1, std::max<int64_t>(1, static_cast<int64_t>(t.shape.size()))));
    if (a.is_tensor(3) && !a.tensor(3).shape.empty()) {
      return a.error(3, "index_fill only supports a 0-dimensional value tensor, got shape " +
                            shape_str(a.tensor(3).shape));
    }
    if (!a.is_tensor(3)) {
      PF_ASSIGN(double v, a.real(3));
      PF_TRY(check_value_fits(a, 3, v, t.dtype));
    }
    return std::vector<TensorType>{t};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    Tensor out = a.tensor(0).contiguous_copy();
    Tensor y = out.dim() == 0 ? reshape_tensor(out, {1}) : out;
    PF_ASSIGN(int64_t dim, dim_arg(a, 1, y.dim()));
    PF_ASSIGN(std::vector<int64_t> at, dim_positions(a, a.tensor(2), dim, y.shape()[dim], true));
    Tensor value = a.is_tensor(3) ? a.tensor(3).to_dtype(y.dtype()) : Tensor();
    if (!a.is_tensor(3)) {
      PF_ASSIGN(double v, a.real(3));
      value = Tensor::zeros(y.dtype(), {});
      fill(value, v);
    }
    Geometry g = geometry_of(y);
    for (int64_t k : at) {
      Geometry slice = g;
      slice.offset += k * g.strides[dim];
      slice.shape.erase(slice.shape.begin() + dim);
      slice.strides.erase(slice.strides.begin() + dim);
      Tensor part = view_with(y, slice);
      copy_strided(broadcast_view(value, part.shape()), part);
    }
    return std::vector<Tensor>{out};
  };
  return op;
}

OpInfo index_add_op() {
  OpInfo op;
  op.name = "index_add";
  op.aliases = {"torch.index_add", "Tensor.index_add", "Tensor.index_add_"};
  op.params = {param_tensor("input"), param_int("dim"), param_tensor("index"),
               param_tensor("source"), kwarg("alpha", ParamKind::scalar, Arg::make_int(1))};
  op.doc =
      "a copy of input with alpha * source's slices added at the entries index names along dim";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    const TensorType& src = a.tensor(3);
    PF_TRY(check_dim_index(a, a.tensor(2)));
    const auto rank = std::max<int64_t>(1, static_cast<int64_t>(t.shape.size()));
    PF_ASSIGN(int64_t dim, dim_arg(a, 1, rank));
    if (src.dtype != t.dtype) {
      return a.error(3, std::string("source must have input's dtype ") + dtype_name(t.dtype) +
                            ", got " + dtype_name(src.dtype));
    }
    Shape expect = t.shape.empty() ? Shape{1} : t.shape;
    expect[dim] = shape_numel(a.tensor(2).shape);
    Shape got = src.shape.empty() ? Shape{1} : src.shape;
    if (got != expect) {
      return a.error(3, "source shape " + shape_str(src.shape) + " does not match " +
                            shape_str(expect) + " (input's shape with dim the index's length)");
    }
    PF_ASSIGN(double alpha, a.real(4));
    if (!is_floating(t.dtype) && a.arg(4).kind == Arg::Kind::real) {
      return a.error(4,
                     std::string("a float alpha cannot scale ") + dtype_name(t.dtype) + " tensors");
    }
    (void)alpha;
    return std::vector<TensorType>{t};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    const Tensor& t = a.tensor(0);
    Shape shape = t.dim() == 0 ? Shape{1} : t.shape();
    PF_ASSIGN(int64_t dim, dim_arg(a, 1, static_cast<int64_t>(shape.size())));
    PF_ASSIGN(std::vector<int64_t> at, dim_positions(a, a.tensor(2), dim, shape[dim], false));
    Shape src_shape = shape;
    src_shape[dim] = static_cast<int64_t>(at.size());
    const Tensor src = reshape_tensor(a.tensor(3), src_shape);
    const Strides out_strides = contiguous_strides(shape);
    const Strides src_strides = contiguous_strides(src_shape);
    const int64_t n = shape_numel(src_shape);
    Tensor out = t.contiguous_copy();
    if (is_floating(t.dtype()) || t.dtype() == DType::boolean) {
      PF_ASSIGN(double alpha, a.real(4));
      std::vector<double> acc = out.to_doubles();
      std::vector<double> sv = src.to_doubles();
      for (int64_t e = 0; e < n; ++e) {
        const int64_t row = (e / src_strides[dim]) % src_shape[dim];
        acc[offset_with(src_shape, out_strides, e, dim, at[row])] += alpha * sv[e];
      }
      return std::vector<Tensor>{Tensor::from_doubles(t.dtype(), t.shape(), acc)};
    }
    const Arg& al = a.arg(4);
    const int64_t alpha = al.kind == Arg::Kind::boolean ? (al.b ? 1 : 0) : al.i;
    std::vector<int64_t> acc = read_indices(out);
    std::vector<int64_t> sv = read_indices(src);
    for (int64_t e = 0; e < n; ++e) {
      const int64_t row = (e / src_strides[dim]) % src_shape[dim];
      int64_t& dst = acc[offset_with(src_shape, out_strides, e, dim, at[row])];
      dst = static_cast<int64_t>(static_cast<uint64_t>(dst) +
                                 static_cast<uint64_t>(alpha) * static_cast<uint64_t>(sv[e]));
    }
    Tensor result = Tensor::zeros(t.dtype(), t.shape());
    for (int64_t i = 0; i < result.numel(); ++i)
      result.set_int(i, wrap_to_dtype(acc[i], t.dtype()));
    return std::vector<Tensor>{result};
  };
  return op;
}

// --- embedding -------------------------------------------------------------------------

OpInfo embedding_op() {
  OpInfo op;
  op.name = "embedding";
  op.aliases = {"torch.nn.functional.embedding"};
  op.params = {param_tensor("input"),
               param_tensor("weight"),
               param_opt_int("padding_idx"),
               param_opt_real("max_norm"),
               param_real("norm_type", 2.0),
               param_ignored("scale_grad_by_freq", Arg::make_bool(false)),
               param_ignored("sparse", Arg::make_bool(false))};
  op.doc = "rows of weight picked by integer indices (padding_idx only affects gradients)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& idx = a.tensor(0);
    const TensorType& w = a.tensor(1);
    PF_TRY(require_index_dtype(a, 0, idx.dtype, false));
    if (w.shape.size() != 2) return a.error(1, "expects a 2-d weight, got " + shape_str(w.shape));
    if (auto p = a.optional_integer(2)) {
      if (*p < -w.shape[0] || *p >= w.shape[0]) {
        return a.error(
            2, "padding_idx must be within the " + std::to_string(w.shape[0]) + " embeddings");
      }
    }
    if (!a.is_none(3)) PF_TRY(a.real(3));
    PF_TRY(a.real(4));
    Shape out = idx.shape;
    out.push_back(w.shape[1]);
    return std::vector<TensorType>{TensorType{w.dtype, out}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& w = a.tensor(1);
    std::vector<int64_t> index = read_indices(a.tensor(0));
    int64_t rows = w.shape()[0];
    for (int64_t v : index) {
      if (v < 0 || v >= rows) return index_out_of_range(a, 0, v, 0, rows);
    }
    Tensor picked = take_along(w, 0, index, 0);
    if (!a.is_none(3)) {
      // max_norm renormalises the used rows (PyTorch does it in place on
      // weight; only the output is affected here).
      PF_ASSIGN(double max_norm, a.real(3));
      PF_ASSIGN(double p, a.real(4));
      std::vector<double> v = picked.to_doubles();
      int64_t dim = w.shape()[1];
      for (size_t r = 0; r < index.size(); ++r) {
        double norm = 0;
        for (int64_t k = 0; k < dim; ++k) norm += std::pow(std::abs(v[r * dim + k]), p);
        norm = std::pow(norm, 1.0 / p);
        if (norm > max_norm) {
          double scale = max_norm / (norm + 1e-7);
          for (int64_t k = 0; k < dim; ++k) v[r * dim + k] *= scale;
        }
      }
      picked = Tensor::from_doubles(w.dtype(), picked.shape(), v);
    }
    return std::vector<Tensor>{reshape_tensor(picked, out[0].shape)};
  };
  return op;
}

}  // namespace

// F.one_hot(input, num_classes): int64 [..., num_classes] with a 1 at each
// index. num_classes=-1 (the largest index + 1) would make the shape depend
// on the values, so it is refused.
OpInfo one_hot_op() {
  OpInfo op;
  op.name = "one_hot";
  op.aliases = {"torch.nn.functional.one_hot"};
  op.params = {param_tensor("input"), param_int("num_classes", -1)};
  op.doc = "int64 one-hot encoding of an index tensor along a new last dim";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    if (a.tensor(0).dtype != DType::int64) {
      return a.error(0, std::string("one_hot takes an int64 index tensor, got ") +
                            dtype_name(a.tensor(0).dtype));
    }
    PF_ASSIGN(int64_t classes, a.integer(1));
    if (classes < 0) {
      return a.error(1, "num_classes " + std::to_string(classes) +
                            ": the size would depend on the values (give num_classes)");
    }
    Shape s = a.tensor(0).shape;
    s.push_back(classes);
    return std::vector<TensorType>{{DType::int64, s}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor x = a.tensor(0).contiguous_copy();
    PF_ASSIGN(int64_t classes, a.integer(1));
    Tensor y = Tensor::zeros(DType::int64, out[0].shape);
    for (int64_t i = 0; i < shape_numel(x.shape()); ++i) {
      const int64_t v = x.get_int(i);
      if (v < 0 || v >= classes) {
        return a.error(0, "class value " + std::to_string(v) + " is outside [0, " +
                              std::to_string(classes) + ")");
      }
      y.set_int(i * classes + v, 1);
    }
    return std::vector<Tensor>{y};
  };
  return op;
}

void register_index_ops(OpRegistry& r) {
  r.add(one_hot_op());
  r.add(index_select_op());
  r.add(gather_op());
  r.add(take_along_dim_op());
  r.add(index_fill_op());
  r.add(index_add_op());
  r.add(scatter_like_op(false));
  r.add(scatter_like_op(true));
  r.add(embedding_op());
}

}  // namespace pf
