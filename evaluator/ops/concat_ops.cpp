// Joining tensors: cat (alias concat) and stack. Inputs of different dtypes
// promote as torch.cat does; values copy exactly (integers never pass
// through double unless the output is floating).
#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

// PyTorch still skips 1-d empty tensors in cat whatever the other shapes are.
bool skipped_in_cat(const Shape& s) { return s.size() == 1 && s[0] == 0; }

template <typename T>
Result<TensorType> cat_type(const BoundArgs<T>& a) {
  auto ts = a.tensors(0);
  if (ts.empty()) return a.error(0, "expects a non-empty list of tensors");
  DType dtype = dtype_of(*ts[0]);
  for (const T* t : ts) dtype = promote_types(dtype, dtype_of(*t));
  const Shape* ref = nullptr;
  size_t ref_index = 0;
  for (size_t k = 0; k < ts.size(); ++k) {
    const Shape& s = shape_of(*ts[k]);
    if (s.empty()) return a.error(0, "zero-dimensional tensor (at position " + std::to_string(k) +
                                         ") cannot be concatenated");
    if (!ref && !skipped_in_cat(s)) {
      ref = &s;
      ref_index = k;
    }
  }
  if (!ref) return TensorType{dtype, {0}};
  int64_t rank = static_cast<int64_t>(ref->size());
  PF_ASSIGN(int64_t dim, dim_arg(a, 1, rank));
  Shape out = *ref;
  out[dim] = 0;
  for (size_t k = 0; k < ts.size(); ++k) {
    const Shape& s = shape_of(*ts[k]);
    if (skipped_in_cat(s)) continue;
    bool same = static_cast<int64_t>(s.size()) == rank;
    for (int64_t d = 0; same && d < rank; ++d) same = d == dim || s[d] == (*ref)[d];
    if (!same) {
      return a.error(0, "sizes must match except in dim " + std::to_string(dim) + ": tensor " +
                            std::to_string(ref_index) + " has shape " + shape_str(*ref) +
                            ", tensor " + std::to_string(k) + " has shape " + shape_str(s));
    }
    out[dim] += s[dim];
  }
  return TensorType{dtype, out};
}

OpInfo cat_op() {
  OpInfo op;
  op.name = "cat";
  op.aliases = {"torch.cat", "torch.concat"};
  op.params = {param_tensors("tensors"), param_int("dim", 0)};
  op.doc = "joins tensors along an existing dim";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(TensorType t, cat_type(a));
    return std::vector<TensorType>{t};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out_types) -> Result<std::vector<Tensor>> {
    const TensorType& ot = out_types[0];
    Tensor out = Tensor::zeros(ot.dtype, ot.shape);
    if (ot.shape.size() == 1 && ot.shape[0] == 0) return std::vector<Tensor>{out};
    PF_ASSIGN(int64_t dim, dim_arg(a, 1, static_cast<int64_t>(ot.shape.size())));
    int64_t start = 0;
    for (const Tensor* t : a.tensors(0)) {
      if (skipped_in_cat(t->shape())) continue;
      Geometry g = geometry_of(out);
      g.shape[dim] = t->shape()[dim];
      g.offset += start * g.strides[dim];
      Tensor dst = view_with(out, g);
      copy_strided(*t, dst);
      start += t->shape()[dim];
    }
    return std::vector<Tensor>{out};
  };
  return op;
}

template <typename T>
Result<TensorType> stack_type(const BoundArgs<T>& a) {
  auto ts = a.tensors(0);
  if (ts.empty()) return a.error(0, "expects a non-empty list of tensors");
  DType dtype = dtype_of(*ts[0]);
  const Shape& ref = shape_of(*ts[0]);
  for (size_t k = 0; k < ts.size(); ++k) {
    dtype = promote_types(dtype, dtype_of(*ts[k]));
    if (shape_of(*ts[k]) != ref) {
      return a.error(0, "expects tensors of equal shape, got " + shape_str(ref) + " at entry 0 and " +
                            shape_str(shape_of(*ts[k])) + " at entry " + std::to_string(k));
    }
  }
  PF_ASSIGN(int64_t dim, dim_arg(a, 1, static_cast<int64_t>(ref.size()) + 1));
  Shape out = ref;
  out.insert(out.begin() + dim, static_cast<int64_t>(ts.size()));
  return TensorType{dtype, out};
}

OpInfo stack_op() {
  OpInfo op;
  op.name = "stack";
  op.aliases = {"torch.stack"};
  op.params = {param_tensors("tensors"), param_int("dim", 0)};
  op.doc = "joins equal-shaped tensors along a new dim";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(TensorType t, stack_type(a));
    return std::vector<TensorType>{t};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out_types) -> Result<std::vector<Tensor>> {
    const TensorType& ot = out_types[0];
    Tensor out = Tensor::zeros(ot.dtype, ot.shape);
    PF_ASSIGN(int64_t dim, dim_arg(a, 1, static_cast<int64_t>(ot.shape.size())));
    int64_t i = 0;
    for (const Tensor* t : a.tensors(0)) {
      Geometry g = geometry_of(out);
      g.offset += i++ * g.strides[dim];
      g.shape.erase(g.shape.begin() + dim);
      g.strides.erase(g.strides.begin() + dim);
      Tensor dst = view_with(out, g);
      copy_strided(*t, dst);
    }
    return std::vector<Tensor>{out};
  };
  return op;
}

}  // namespace

void register_concat_ops(OpRegistry& r) {
  r.add(cat_op());
  r.add(stack_op());
}

}  // namespace pf
