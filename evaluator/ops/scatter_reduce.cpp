// scatter_reduce(input, dim, index, src, reduce, *, include_self=True) as
// PyTorch: each index element sends src at its coordinates to input's
// element with that dim replaced by the index value, where the values are
// combined by sum, prod, mean, amax or amin (NaN propagates in amax/amin).
// include_self=False leaves input's value out of every element that
// receives one. mean divides by the number of values combined (floor
// division for integers, of the sum wrapped to the dtype as PyTorch sums in
// it). Every reduction is order-independent but for float rounding, so
// duplicate indices need no tie rule. The GPU baseline composes it
// (gpu/ops_scatter_reduce.cpp).
#include <cmath>
#include <limits>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

enum class Reduce : uint8_t { sum, prod, mean, amax, amin };

Result<Reduce> read_reduce(const ArgReader& a, size_t i) {
  PF_ASSIGN(std::string s, a.string(i));
  if (s == "sum") return Reduce::sum;
  if (s == "prod") return Reduce::prod;
  if (s == "mean") return Reduce::mean;
  if (s == "amax") return Reduce::amax;
  if (s == "amin") return Reduce::amin;
  return a.error(i, "reduce argument must be either sum, prod, mean, amax or amin, got " + s);
}

// index: the rank of input and src; no larger than src anywhere, nor than
// input outside dim (PyTorch's scatter shape rule).
template <typename T>
Status check_shapes(const BoundArgs<T>& a, int64_t dim, const Shape& in, const Shape& idx,
                    const Shape& src) {
  if (idx.size() != in.size() || src.size() != in.size()) {
    return a.error(2, "index and src must have the rank of input (" + std::to_string(in.size()) +
                          "), got " + shape_str(idx) + " and " + shape_str(src));
  }
  for (size_t d = 0; d < idx.size(); ++d) {
    if (idx[d] > src[d] || (static_cast<int64_t>(d) != dim && idx[d] > in[d])) {
      return a.error(2, "index shape " + shape_str(idx) + " exceeds input " + shape_str(in) +
                            " or src " + shape_str(src) + " at dim " + std::to_string(d));
    }
  }
  return ok_status();
}

// The row-major position in `shape` of coordinates `c`.
int64_t position(const Shape& shape, const std::vector<int64_t>& c) {
  int64_t p = 0;
  for (size_t d = 0; d < shape.size(); ++d) p = p * shape[d] + c[d];
  return p;
}

template <typename V>
V combine(Reduce r, V acc, V x) {
  switch (r) {
    case Reduce::sum:
    case Reduce::mean:
      return acc + x;
    case Reduce::prod:
      return acc * x;
    case Reduce::amax:
    case Reduce::amin:
      if constexpr (std::is_floating_point_v<V>) {
        if (std::isnan(acc) || std::isnan(x)) return std::numeric_limits<V>::quiet_NaN();
      }
      return r == Reduce::amax ? std::max(acc, x) : std::min(acc, x);
  }
  return acc;
}

// V: double for floating dtypes, int64 for integers (exact).
template <typename V>
Result<Tensor> scatter_reduce_values(const BoundArgs<Tensor>& a, int64_t dim, Reduce r,
                                     bool include_self) {
  const Tensor& x = a.tensor(0);
  const Tensor& index = a.tensor(2);
  const Tensor& src = a.tensor(3);
  auto read = [](const Tensor& t, int64_t i) -> V {
    if constexpr (std::is_floating_point_v<V>) {
      return t.get(i);
    } else {
      return t.get_int(i);
    }
  };
  const int64_t n = x.numel();
  std::vector<V> acc(static_cast<size_t>(n));
  std::vector<int64_t> count(static_cast<size_t>(n), include_self ? 1 : 0);
  std::vector<bool> touched(static_cast<size_t>(n), false);
  for (int64_t i = 0; i < n; ++i) acc[static_cast<size_t>(i)] = read(x, i);
  const Shape& ishape = index.shape();
  std::vector<int64_t> c(ishape.size(), 0);
  for (int64_t e = 0, m = index.numel(); e < m; ++e) {
    for (int64_t rest = e, d = static_cast<int64_t>(ishape.size()) - 1; d >= 0; --d) {
      c[static_cast<size_t>(d)] = rest % ishape[static_cast<size_t>(d)];
      rest /= ishape[static_cast<size_t>(d)];
    }
    const V value = read(src, position(src.shape(), c));
    const int64_t to = index.get_int(e);
    const int64_t size = x.shape()[static_cast<size_t>(dim)];
    if (to < 0 || to >= size) {
      return a.error(2, "index " + std::to_string(to) + " is out of bounds for dimension " +
                            std::to_string(dim) + " with size " + std::to_string(size));
    }
    std::vector<int64_t> at = c;
    at[static_cast<size_t>(dim)] = to;
    const auto p = static_cast<size_t>(position(x.shape(), at));
    acc[p] = !include_self && !touched[p] ? value : combine(r, acc[p], value);
    touched[p] = true;
    ++count[p];
  }
  Tensor y = Tensor::zeros(x.dtype(), x.shape());
  for (int64_t i = 0; i < n; ++i) {
    V v = acc[static_cast<size_t>(i)];
    if (r == Reduce::mean) {
      const V k = static_cast<V>(std::max<int64_t>(count[static_cast<size_t>(i)], 1));
      if constexpr (std::is_floating_point_v<V>) {
        v = v / k;
      } else {
        // PyTorch sums in the dtype (wrapping) before dividing: wrap first.
        v = wrap_to_dtype(v, x.dtype());
        v = v / k - ((v % k != 0) && ((v < 0) != (k < 0)) ? 1 : 0);  // floor division
      }
    }
    if constexpr (std::is_floating_point_v<V>) {
      y.set(i, v);
    } else {
      y.set_int(i, v);
    }
  }
  return y;
}

OpInfo scatter_reduce_op() {
  OpInfo op;
  op.name = "scatter_reduce";
  op.aliases = {"torch.scatter_reduce", "Tensor.scatter_reduce", "Tensor.scatter_reduce_"};
  op.params = {tensor_param("input"),
               param("dim", ParamKind::integer),
               tensor_param("index"),
               tensor_param("src"),
               param("reduce", ParamKind::string),
               kwarg("include_self", ParamKind::boolean, Arg::make_bool(true)),
               ignored_param("out")};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    if (x.dtype == DType::boolean) {
      return a.error(0, "scatter_reduce is not implemented for bool tensors here");
    }
    if (a.tensor(2).dtype != DType::int64) {
      return a.error(2,
                     std::string("expected an int64 index, got ") + dtype_name(a.tensor(2).dtype));
    }
    if (a.tensor(3).dtype != x.dtype) {
      return a.error(3, std::string("expected src of dtype ") + dtype_name(x.dtype) + ", got " +
                            dtype_name(a.tensor(3).dtype));
    }
    if (x.shape.empty()) return a.error(0, "scatter_reduce of a 0-d input is not supported");
    PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, static_cast<int64_t>(x.shape.size())));
    PF_TRY(check_shapes(a, dim, x.shape, a.tensor(2).shape, a.tensor(3).shape));
    PF_TRY(read_reduce(a, 4));
    PF_TRY(a.boolean(5));
    return std::vector<TensorType>{x};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, a.tensor(0).dim()));
    PF_ASSIGN(Reduce r, read_reduce(a, 4));
    PF_ASSIGN(bool include_self, a.boolean(5));
    Result<Tensor> y = is_floating(a.tensor(0).dtype())
                           ? scatter_reduce_values<double>(a, dim, r, include_self)
                           : scatter_reduce_values<int64_t>(a, dim, r, include_self);
    if (!y.ok()) return std::move(y).error();
    return std::vector<Tensor>{std::move(*y)};
  };
  op.doc = "a copy of input with src combined (sum/prod/mean/amax/amin) at index along dim";
  return op;
}

}  // namespace

void register_scatter_reduce_ops(OpRegistry& r) {
  r.add(scatter_reduce_op());
}

}  // namespace pf
