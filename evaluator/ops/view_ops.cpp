// Reshaping views: view, reshape, flatten, unflatten, view_as, reshape_as,
// contiguous, detach, clone. view always aliases (or fails, as in PyTorch);
// reshape/flatten/contiguous alias when the input's strides allow it and copy
// otherwise, exactly when PyTorch copies.
#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

using ShapeFn = std::function<Result<Shape>(const Shape&, const ArgReader&)>;

// An op with reshape semantics: the output has the shape `fn` computes and
// shares storage with the input whenever a view can express it.
OpInfo reshape_like_op(std::string name, std::vector<std::string> aliases,
                       std::vector<ParamDef> params, ShapeFn fn, std::string doc) {
  OpInfo op;
  op.name = std::move(name);
  op.aliases = std::move(aliases);
  op.params = std::move(params);
  op.may_alias = true;  // a view whenever the strides allow, else a copy
  op.doc = std::move(doc);
  op.infer = [fn](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    PF_ASSIGN(Shape s, fn(t.shape, a));
    return std::vector<TensorType>{TensorType{t.dtype, s}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    return std::vector<Tensor>{reshape_tensor(a.tensor(0), out[0].shape)};
  };
  return op;
}

Result<Shape> flatten_shape(const Shape& in, const ArgReader& a) {
  int64_t rank = static_cast<int64_t>(in.size());
  PF_ASSIGN(int64_t start, dim_arg(a, 1, rank));
  PF_ASSIGN(int64_t end, dim_arg(a, 2, rank));
  if (rank == 0) return Shape{1};
  if (start > end) return a.error(1, "start_dim must be <= end_dim after wrapping");
  Shape out(in.begin(), in.begin() + start);
  int64_t n = 1;
  for (int64_t d = start; d <= end; ++d) n *= in[d];
  out.push_back(n);
  out.insert(out.end(), in.begin() + end + 1, in.end());
  return out;
}

Result<Shape> unflatten_shape(const Shape& in, const ArgReader& a) {
  PF_ASSIGN(int64_t dim, dim_arg(a, 1, static_cast<int64_t>(in.size())));
  if (in.empty()) return a.error(1, "cannot unflatten a 0-d tensor");
  PF_ASSIGN(std::vector<int64_t> sizes, a.ints(2));
  if (sizes.empty()) return a.error(2, "sizes must not be empty");
  PF_ASSIGN(Shape inner, resolve_shape(a, 2, sizes, in[dim]));
  Shape out(in.begin(), in.begin() + dim);
  out.insert(out.end(), inner.begin(), inner.end());
  out.insert(out.end(), in.begin() + dim + 1, in.end());
  return out;
}

OpInfo as_op(std::string name, std::vector<std::string> aliases, bool must_view) {
  OpInfo op;
  op.name = std::move(name);
  op.aliases = std::move(aliases);
  op.params = {param_tensor("input"), param_tensor("other")};
  op.is_view = must_view;
  op.may_alias = !must_view;
  op.doc = must_view ? "input.view(other.shape)" : "input.reshape(other.shape)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    const Shape& s = a.tensor(1).shape;
    if (shape_numel(s) != shape_numel(t.shape)) {
      return a.error(1, "shape " + shape_str(s) + " is invalid for input of size " +
                            std::to_string(shape_numel(t.shape)));
    }
    return std::vector<TensorType>{TensorType{t.dtype, s}};
  };
  op.cpu = [must_view](const BoundArgs<Tensor>& a,
                       const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& t = a.tensor(0);
    auto strides = view_strides(t.shape(), t.strides(), out[0].shape);
    if (must_view && !strides) {
      return op_error(a, "the input's strides do not allow a view; use reshape_as instead");
    }
    return std::vector<Tensor>{reshape_tensor(t, out[0].shape)};
  };
  return op;
}

enum class Aliasing : uint8_t { never, sometimes, always };

OpInfo same_type_op(std::string name, std::vector<std::string> aliases,
                    std::vector<ParamDef> params, Aliasing aliasing,
                    std::function<Tensor(const Tensor&)> fn, std::string doc) {
  OpInfo op;
  op.name = std::move(name);
  op.aliases = std::move(aliases);
  op.params = std::move(params);
  op.is_view = aliasing == Aliasing::always;
  op.may_alias = aliasing == Aliasing::sometimes;
  op.doc = std::move(doc);
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    return std::vector<TensorType>{a.tensor(0)};
  };
  op.cpu = [fn](const BoundArgs<Tensor>& a,
                const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    return std::vector<Tensor>{fn(a.tensor(0))};
  };
  return op;
}

}  // namespace

void register_view_ops(OpRegistry& r) {
  r.add(view_op(
      "view", {"Tensor.view"}, {param_tensor("input"), param_ints("size", std::nullopt, true)},
      [](const Geometry& in, const ArgReader& a) -> Result<Geometry> {
        PF_ASSIGN(std::vector<int64_t> size, a.ints(1));
        PF_ASSIGN(Shape shape, resolve_shape(a, 1, size, shape_numel(in.shape)));
        auto strides = view_strides(in.shape, in.strides, shape);
        if (!strides) {
          return op_error(a, "view size " + shape_str(shape) +
                                 " is not compatible with the input's size and strides (a "
                                 "dimension spans two non-contiguous subspaces); use reshape");
        }
        return Geometry{shape, *strides, in.offset};
      },
      "a view with another shape (one size may be -1); fails if the strides do not allow it"));
  r.add(reshape_like_op(
      "reshape", {"torch.reshape", "Tensor.reshape"},
      {param_tensor("input"), param_ints("shape", std::nullopt, true)},
      [](const Shape& in, const ArgReader& a) -> Result<Shape> {
        PF_ASSIGN(std::vector<int64_t> size, a.ints(1));
        return resolve_shape(a, 1, size, shape_numel(in));
      },
      "another shape (one size may be -1): a view when possible, else a copy"));
  r.add(reshape_like_op("flatten", {"torch.flatten", "Tensor.flatten"},
                        {param_tensor("input"), param_int("start_dim", 0), param_int("end_dim", -1)},
                        flatten_shape, "merges dims start_dim..end_dim into one"));
  r.add(reshape_like_op("unflatten", {"torch.unflatten", "Tensor.unflatten"},
                        {param_tensor("input"), param_int("dim"), param_ints("sizes")},
                        unflatten_shape, "splits one dim into sizes (one may be -1)"));
  r.add(as_op("view_as", {"Tensor.view_as"}, true));
  r.add(as_op("reshape_as", {"Tensor.reshape_as"}, false));
  r.add(same_type_op(
      "contiguous", {"Tensor.contiguous"},
      {param_tensor("input"), param_ignored("memory_format")}, Aliasing::sometimes,
      [](const Tensor& t) { return t.is_contiguous() ? t : t.contiguous_copy(); },
      "the input itself if contiguous, else a contiguous copy"));
  r.add(same_type_op("detach", {"Tensor.detach", "torch.detach"}, {param_tensor("input")},
                     Aliasing::always, [](const Tensor& t) { return t; }, "the input itself (no autograd here)"));
  r.add(same_type_op("clone", {"torch.clone", "Tensor.clone"},
                     {param_tensor("input"), param_ignored("memory_format")},
                     Aliasing::never, [](const Tensor& t) { return t.contiguous_copy(); },
                     "a contiguous copy"));
}

}  // namespace pf
