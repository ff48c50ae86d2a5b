// index_put(input, indices, values, accumulate=False): x[indices] = values
// (or +=) on a copy, indices a tuple of integer tensors and None (a full
// slice), broadcast together, as PyTorch's advanced indexing: the indexed
// dims' positions come first in the written view unless the tensor indices
// are adjacent, where they replace those dims in place. Negative indices
// count from the end.
//
// Duplicate positions without accumulate: PyTorch leaves which value wins
// unspecified (the CUDA kernel races), so the CPU reference refuses such an
// input when the duplicates carry different values (equal values give one
// answer); a variant drawing colliding indices then fails its evaluation
// with that message instead of being compared. The GPU baseline composes it
// (gpu/ops_index_put.cpp).
#include "evaluator/ops/elementwise.h"
#include "evaluator/ops/index_put_form.h"
#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {

namespace {

Result<IndexPutForm> form_of(const BoundArgs<TensorType>& a) {
  return read_index_put_form(
      a, a.tensor(0).shape, [](const TensorType& t) { return t.shape; },
      [](const TensorType& t) { return t.dtype; });
}

Result<IndexPutForm> form_of(const BoundArgs<Tensor>& a) {
  return read_index_put_form(
      a, a.tensor(0).shape(), [](const Tensor& t) { return t.shape(); },
      [](const Tensor& t) { return t.dtype(); });
}

OpInfo index_put_op() {
  OpInfo op;
  op.name = "index_put";
  op.aliases = {"torch.index_put", "Tensor.index_put", "Tensor.index_put_", "torch.index_put_"};
  // values may be a number too: item assignment with several index tensors
  // is lowered here (setitem's overload, getitem.cpp); PyTorch's own
  // index_put takes tensors only.
  op.params = {tensor_param("input"), ParamDef{"indices", ParamKind::indices},
               param("values", ParamKind::tensor_or_scalar),
               param("accumulate", ParamKind::boolean, Arg::make_bool(false))};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    PF_ASSIGN(IndexPutForm f, form_of(a));
    if (!a.is_tensor(2)) {
      PF_ASSIGN(double number, a.real(2));
      PF_TRY(check_value_fits(a, 2, number, x.dtype));
      PF_TRY(a.boolean(3));
      return std::vector<TensorType>{x};
    }
    const TensorType& v = a.tensor(2);
    if (v.dtype != x.dtype) {
      return a.error(2, std::string("Index put requires the source and destination dtypes match, "
                                    "got ") +
                            dtype_name(x.dtype) + " for the destination and " +
                            dtype_name(v.dtype) + " for the source.");
    }
    auto b = broadcast_shapes(v.shape, f.view);
    if (!b.ok() || *b != f.view) {
      return a.error(2, "shape mismatch: value tensor of shape " + shape_str(v.shape) +
                            " cannot be broadcast to indexing result of shape " +
                            shape_str(f.view));
    }
    PF_TRY(a.boolean(3));
    return std::vector<TensorType>{x};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(IndexPutForm f, form_of(a));
    PF_ASSIGN(bool accumulate, a.boolean(3));
    Tensor number = Tensor::zeros(x.dtype(), {});
    if (!a.is_tensor(2)) {
      PF_ASSIGN(double v, a.real(2));
      layout::fill(number, v);
    }
    const Tensor values = broadcast_to(a.is_tensor(2) ? a.tensor(2) : number, f.view);
    std::vector<Tensor> index;
    for (size_t item : f.items) {
      index.push_back(broadcast_to(a.env()[a.arg(1).items[item].value][0], f.broadcast));
    }
    const bool exact = !is_floating(x.dtype());
    Tensor y = x.contiguous_copy();
    std::vector<int64_t> written(static_cast<size_t>(y.numel()), -1);
    // Floating accumulation in double, rounded to the dtype once at the end
    // (PyTorch's CUDA kernel sums duplicates in float, then rounds).
    std::vector<double> sums;
    if (accumulate && !exact) {
      sums.resize(static_cast<size_t>(y.numel()));
      for (int64_t i = 0; i < y.numel(); ++i) sums[static_cast<size_t>(i)] = y.get(i);
    }
    const Strides strides = contiguous_strides(x.shape());
    std::vector<int64_t> c(f.view.size());
    for (int64_t e = 0, n = shape_numel(f.view); e < n; ++e) {
      for (int64_t rest = e, d = static_cast<int64_t>(c.size()) - 1; d >= 0; --d) {
        c[static_cast<size_t>(d)] = rest % f.view[static_cast<size_t>(d)];
        rest /= f.view[static_cast<size_t>(d)];
      }
      int64_t b = 0;
      for (size_t d = 0; d < f.broadcast.size(); ++d)
        b = b * f.broadcast[d] + c[f.broadcast_at + d];
      int64_t to = 0;
      for (size_t k = 0; k < f.indexed.size(); ++k) {
        const auto dim = static_cast<size_t>(f.indexed[k]);
        int64_t i = index[k].get_int(b);
        if (i < -x.shape()[dim] || i >= x.shape()[dim]) {
          return a.error(1, "index " + std::to_string(i) + " is out of bounds for dimension " +
                                std::to_string(dim) + " with size " +
                                std::to_string(x.shape()[dim]));
        }
        if (i < 0) i += x.shape()[dim];
        to += i * strides[dim];
      }
      for (size_t k = 0; k < f.sliced.size(); ++k) {
        const size_t pos = k < f.broadcast_at ? k : k + f.broadcast.size();
        to += c[pos] * strides[static_cast<size_t>(f.sliced[k])];
      }
      auto& last = written[static_cast<size_t>(to)];
      if (accumulate) {
        if (exact) {
          y.set_int(to, y.get_int(to) + values.get_int(e));
        } else {
          sums[static_cast<size_t>(to)] += values.get(e);
        }
        continue;
      }
      if (last >= 0 && (exact ? values.get_int(last) != values.get_int(e)
                              : !(values.get(last) == values.get(e)))) {
        return a.error(1,
                       "two index positions write the same element with different values "
                       "and accumulate=False: PyTorch leaves which one wins unspecified");
      }
      last = e;
      if (exact) {
        y.set_int(to, values.get_int(e));
      } else {
        y.set(to, values.get(e));
      }
    }
    for (size_t i = 0; i < sums.size(); ++i) y.set(static_cast<int64_t>(i), sums[i]);
    return std::vector<Tensor>{y};
  };
  op.doc = "a copy of input with values written (accumulate: added) at the indexed positions";
  return op;
}

}  // namespace

void register_index_put_ops(OpRegistry& r) {
  r.add(index_put_op());
}

}  // namespace pf
