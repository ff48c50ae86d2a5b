#include "evaluator/ops/layout_util.h"

#include <algorithm>
#include <cstring>

#include "common/check.h"

namespace pf::layout {

ParamDef param_tensor(std::string name) { return ParamDef{std::move(name), ParamKind::tensor}; }

ParamDef param_opt_tensor(std::string name) {
  return ParamDef{std::move(name), ParamKind::optional_tensor, Arg::make_none()};
}

ParamDef param_tensors(std::string name, bool varargs) {
  ParamDef p{std::move(name), ParamKind::tensor_list};
  p.varargs = varargs;
  return p;
}

ParamDef param_int(std::string name, std::optional<int64_t> def) {
  ParamDef p{std::move(name), ParamKind::integer};
  if (def) p.default_value = Arg::make_int(*def);
  return p;
}

ParamDef param_opt_int(std::string name) {
  return ParamDef{std::move(name), ParamKind::optional_integer, Arg::make_none()};
}

ParamDef param_ints(std::string name, std::optional<std::vector<int64_t>> def, bool varargs) {
  ParamDef p{std::move(name), ParamKind::int_list};
  if (def) {
    std::vector<Arg> items;
    for (int64_t v : *def) items.push_back(Arg::make_int(v));
    p.default_value = Arg::make_list(std::move(items));
  }
  p.varargs = varargs;
  return p;
}

ParamDef param_opt_ints(std::string name) {
  return ParamDef{std::move(name), ParamKind::optional_int_list, Arg::make_none()};
}

ParamDef param_real(std::string name, std::optional<double> def) {
  ParamDef p{std::move(name), ParamKind::real};
  if (def) p.default_value = Arg::make_real(*def);
  return p;
}

ParamDef param_opt_real(std::string name) {
  return ParamDef{std::move(name), ParamKind::optional_real, Arg::make_none()};
}

ParamDef param_bool(std::string name, std::optional<bool> def) {
  ParamDef p{std::move(name), ParamKind::boolean};
  if (def) p.default_value = Arg::make_bool(*def);
  return p;
}

ParamDef param_string(std::string name, std::optional<std::string> def) {
  ParamDef p{std::move(name), ParamKind::string};
  if (def) p.default_value = Arg::make_string(*def);
  return p;
}

ParamDef param_opt_string(std::string name) {
  return ParamDef{std::move(name), ParamKind::optional_string, Arg::make_none()};
}

ParamDef param_ignored(std::string name, Arg def) {
  return ParamDef{std::move(name), ParamKind::ignored, std::move(def)};
}

Result<int64_t> dim_arg(const ArgReader& a, size_t i, int64_t rank) {
  PF_ASSIGN(int64_t dim, a.integer(i));
  std::vector<int64_t> wrapped;
  PF_ASSIGN(wrapped, wrap_dims(a, i, {dim}, rank));
  return wrapped[0];
}

Result<std::vector<int64_t>> wrap_dims(const ArgReader& a, size_t i,
                                       const std::vector<int64_t>& dims, int64_t rank) {
  int64_t r = std::max<int64_t>(rank, 1);  // a 0-d tensor accepts dim 0 and -1
  std::vector<int64_t> out;
  std::vector<bool> seen(static_cast<size_t>(r), false);
  for (int64_t d : dims) {
    if (d < -r || d >= r) {
      return a.error(i, "dim " + std::to_string(d) + " is out of range for a tensor of rank " +
                            std::to_string(rank) + " (expected " + std::to_string(-r) + ".." +
                            std::to_string(r - 1) + ")");
    }
    int64_t w = d < 0 ? d + r : d;
    if (seen[static_cast<size_t>(w)]) {
      return a.error(i, "dim " + std::to_string(d) + " appears more than once");
    }
    seen[static_cast<size_t>(w)] = true;
    out.push_back(w);
  }
  return out;
}

Result<std::vector<int64_t>> ints_n(const ArgReader& a, size_t i, size_t n) {
  PF_ASSIGN(std::vector<int64_t> v, a.ints(i));
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  if (v.size() != n) {
    return a.error(i, "expected an int or " + std::to_string(n) + " ints, got " +
                          std::to_string(v.size()));
  }
  return v;
}

Result<std::vector<int64_t>> ints_n_or(const ArgReader& a, size_t i, size_t n,
                                       const std::vector<int64_t>& fallback) {
  const Arg& arg = a.arg(i);
  if (arg.is_none() || (arg.is_sequence() && arg.items.empty())) return fallback;
  return ints_n(a, i, n);
}

Status require_floating(const ArgReader& a, size_t i, DType t) {
  if (is_floating(t)) return ok_status();
  return a.error(i, std::string("expected a floating tensor, got ") + dtype_name(t));
}

Status require_same_dtype(const ArgReader& a, size_t i, DType expected, DType got) {
  if (expected == got) return ok_status();
  return a.error(i, std::string("expected dtype ") + dtype_name(expected) + " (as the input), got " +
                        dtype_name(got) + "; cast one of them first");
}

Error op_error(const ArgReader& a, const std::string& message) {
  return make_error(ErrorCode::invalid_argument, a.op() + ": " + message);
}

Geometry geometry_of(const Tensor& t) { return Geometry{t.shape(), t.strides(), t.offset()}; }

Geometry contiguous_geometry(const Shape& shape) {
  return Geometry{shape, contiguous_strides(shape), 0};
}

Tensor view_with(const Tensor& base, const Geometry& g) {
  return Tensor::view_of(base, g.shape, g.strides, g.offset);
}

std::optional<Strides> view_strides(const Shape& shape, const Strides& strides,
                                    const Shape& new_shape) {
  Strides out(new_shape.size(), 1);
  if (shape.empty()) return out;
  int64_t numel = shape_numel(shape);
  if (numel == 0) {
    if (shape == new_shape) return strides;
    return contiguous_strides(new_shape);
  }
  int64_t view_d = static_cast<int64_t>(new_shape.size()) - 1;
  int64_t chunk_base_stride = strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(shape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= shape[tensor_d];
    bool chunk_ends = tensor_d == 0 || (shape[tensor_d - 1] != 1 &&
                                        strides[tensor_d - 1] != tensor_numel * chunk_base_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d] == 1)) {
      out[view_d] = view_numel * chunk_base_stride;
      view_numel *= new_shape[view_d];
      --view_d;
    }
    if (view_numel != tensor_numel) return std::nullopt;
    if (tensor_d > 0) {
      chunk_base_stride = strides[tensor_d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

Result<Shape> resolve_shape(const ArgReader& a, size_t i, const std::vector<int64_t>& size,
                            int64_t numel) {
  Shape shape(size.begin(), size.end());
  int64_t infer_at = -1;
  int64_t known = 1;
  auto invalid = [&] {
    return a.error(i, "shape '" + shape_str(shape) + "' is invalid for input of size " +
                          std::to_string(numel));
  };
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      if (infer_at >= 0) return a.error(i, "only one dimension can be -1");
      infer_at = static_cast<int64_t>(d);
    } else if (shape[d] < 0) {
      return a.error(i, "invalid size " + std::to_string(shape[d]) + " in shape " +
                            shape_str(shape));
    } else {
      known *= shape[d];
    }
  }
  if (infer_at >= 0) {
    if (known == 0) {
      return a.error(i, "cannot infer the -1 in shape " + shape_str(shape) +
                            " because it has a zero-sized dimension");
    }
    if (numel % known != 0) return invalid();
    shape[infer_at] = numel / known;
  } else if (known != numel) {
    return invalid();
  }
  return shape;
}

Tensor broadcast_view(const Tensor& t, const Shape& shape) {
  PF_CHECK(shape.size() >= t.shape().size());
  size_t lead = shape.size() - t.shape().size();
  Strides strides(shape.size(), 0);
  for (size_t d = 0; d < t.shape().size(); ++d) {
    PF_CHECK(t.shape()[d] == shape[lead + d] || t.shape()[d] == 1);
    if (t.shape()[d] == shape[lead + d]) strides[lead + d] = t.strides()[d];
  }
  return Tensor::view_of(t, shape, strides, t.offset());
}

Tensor reshape_tensor(const Tensor& t, const Shape& shape) {
  if (auto strides = view_strides(t.shape(), t.strides(), shape)) {
    return Tensor::view_of(t, shape, *strides, t.offset());
  }
  Tensor c = t.contiguous_copy();
  return Tensor::view_of(c, shape, contiguous_strides(shape), 0);
}

OpInfo view_op(std::string name, std::vector<std::string> aliases, std::vector<ParamDef> params,
               GeometryFn fn, std::string doc) {
  OpInfo op;
  op.name = std::move(name);
  op.aliases = std::move(aliases);
  op.params = std::move(params);
  op.is_view = true;
  op.doc = std::move(doc);
  op.infer = [fn](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    PF_ASSIGN(Geometry g, fn(contiguous_geometry(t.shape), a));
    return std::vector<TensorType>{TensorType{t.dtype, g.shape}};
  };
  op.cpu = [fn](const BoundArgs<Tensor>& a,
                const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    const Tensor& t = a.tensor(0);
    PF_ASSIGN(Geometry g, fn(geometry_of(t), a));
    return std::vector<Tensor>{view_with(t, g)};
  };
  return op;
}

OpInfo list_view_op(std::string name, std::vector<std::string> aliases,
                    std::vector<ParamDef> params, GeometryListFn fn, std::string doc) {
  OpInfo op;
  op.name = std::move(name);
  op.aliases = std::move(aliases);
  op.params = std::move(params);
  op.is_view = true;
  op.returns_list = true;
  op.doc = std::move(doc);
  op.infer = [fn](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    PF_ASSIGN(std::vector<Geometry> gs, fn(contiguous_geometry(t.shape), a));
    std::vector<TensorType> out;
    for (const auto& g : gs) out.push_back(TensorType{t.dtype, g.shape});
    return out;
  };
  op.cpu = [fn](const BoundArgs<Tensor>& a,
                const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    const Tensor& t = a.tensor(0);
    PF_ASSIGN(std::vector<Geometry> gs, fn(geometry_of(t), a));
    std::vector<Tensor> out;
    for (const auto& g : gs) out.push_back(view_with(t, g));
    return out;
  };
  return op;
}

namespace {

// Calls f(offset_a, offset_b) for every element of `shape`, visiting
// elements in row-major order; offsets are in elements.
template <typename F>
void for_each_pair(const Shape& shape, const Strides& sa, const Strides& sb, F f) {
  int64_t n = shape_numel(shape);
  if (n == 0) return;
  size_t rank = shape.size();
  if (rank == 0) {
    f(0, 0);
    return;
  }
  std::vector<int64_t> idx(rank, 0);
  int64_t inner = shape[rank - 1];
  int64_t ia = sa[rank - 1], ib = sb[rank - 1];
  int64_t oa = 0, ob = 0;
  for (int64_t done = 0; done < n; done += inner) {
    for (int64_t k = 0; k < inner; ++k) f(oa + k * ia, ob + k * ib);
    for (size_t d = rank - 1; d-- > 0;) {
      ++idx[d];
      oa += sa[d];
      ob += sb[d];
      if (idx[d] < shape[d]) break;
      oa -= sa[d] * shape[d];
      ob -= sb[d] * shape[d];
      idx[d] = 0;
    }
  }
}

}  // namespace

void copy_strided(const Tensor& src, Tensor& dst) {
  PF_CHECK(src.shape() == dst.shape());
  if (dst.numel() == 0) return;
  Tensor s = src.dtype() == dst.dtype() ? src : src.to_dtype(dst.dtype());
  size_t es = dtype_size(dst.dtype());
  const std::byte* from = s.data();
  std::byte* to = dst.mutable_data();
  if (s.is_contiguous() && dst.is_contiguous()) {
    std::memcpy(to, from, dst.nbytes());
    return;
  }
  for_each_pair(dst.shape(), s.strides(), dst.strides(), [&](int64_t a, int64_t b) {
    std::memcpy(to + b * static_cast<int64_t>(es), from + a * static_cast<int64_t>(es), es);
  });
}

Tensor materialize(const Tensor& t, DType dtype) {
  return t.dtype() == dtype ? t.contiguous_copy() : t.to_dtype(dtype);
}

void fill(Tensor& t, double v) {
  Tensor one = Tensor::from_doubles(t.dtype(), {}, {v});
  Tensor src = Tensor::view_of(one, t.shape(), Strides(t.shape().size(), 0), 0);
  copy_strided(src, t);
}

Tensor take_along(const Tensor& t, int64_t dim, const std::vector<int64_t>& index, double fill_v) {
  Shape shape = t.shape();
  PF_CHECK(dim >= 0 && dim < static_cast<int64_t>(shape.size()));
  int64_t src_d = shape[dim];
  shape[dim] = static_cast<int64_t>(index.size());
  Tensor out = Tensor::zeros(t.dtype(), shape);
  if (out.numel() == 0) return out;
  Tensor src = t.is_contiguous() ? t : t.contiguous_copy();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[d];
  for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
  size_t es = dtype_size(t.dtype());
  size_t row = static_cast<size_t>(inner) * es;
  Tensor fill_t = Tensor::from_doubles(t.dtype(), {}, {fill_v});
  std::vector<std::byte> fill_row(row);
  for (int64_t k = 0; k < inner; ++k) std::memcpy(fill_row.data() + k * es, fill_t.data(), es);
  const std::byte* from = src.data();
  std::byte* to = out.mutable_data();
  int64_t m = static_cast<int64_t>(index.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < m; ++j) {
      std::byte* dst = to + (o * m + j) * row;
      if (index[j] < 0) {
        std::memcpy(dst, fill_row.data(), row);
      } else {
        PF_CHECK(index[j] < src_d);
        std::memcpy(dst, from + (o * src_d + index[j]) * row, row);
      }
    }
  }
  return out;
}

std::vector<int64_t> read_indices(const Tensor& t) {
  Tensor c = materialize(t, DType::int64);
  std::vector<int64_t> out(static_cast<size_t>(c.numel()));
  if (!out.empty()) std::memcpy(out.data(), c.data(), out.size() * sizeof(int64_t));
  return out;
}

std::vector<double> read_doubles(const Tensor& t) {
  if (t.is_contiguous()) return t.to_doubles();
  Tensor c = Tensor::zeros(t.dtype(), t.shape());
  copy_strided(t, c);
  return c.to_doubles();
}

}  // namespace pf::layout
