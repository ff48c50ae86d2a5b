// Ops returning tensor lists whose elements are views: unbind, split, chunk,
// tensor_split (views of their input) and meshgrid (expanded views of each
// input).
#include <algorithm>
#include <utility>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

Geometry narrowed(const Geometry& in, int64_t dim, int64_t start, int64_t length) {
  Geometry g = in;
  g.shape[dim] = length;
  g.offset += start * in.strides[dim];
  return g;
}

// Consecutive pieces of `dim` with the given lengths (which sum to its size).
std::vector<Geometry> pieces(const Geometry& in, int64_t dim, const std::vector<int64_t>& sizes) {
  std::vector<Geometry> out;
  int64_t start = 0;
  for (int64_t s : sizes) {
    out.push_back(narrowed(in, dim, start, s));
    start += s;
  }
  return out;
}

Result<int64_t> split_dim(const Geometry& in, const ArgReader& a, size_t i) {
  if (in.shape.empty()) return a.error(0, "cannot split a 0-d tensor");
  return dim_arg(a, i, static_cast<int64_t>(in.shape.size()));
}

// An int or a list of ints, kept apart (split(x, 2) and split(x, [2]) differ).
Result<std::optional<std::vector<int64_t>>> int_or_list(const ArgReader& a, size_t i) {
  const Arg& arg = a.arg(i);
  if (arg.kind == Arg::Kind::integer) return std::optional<std::vector<int64_t>>{};
  if (!arg.is_sequence()) return a.error(i, "expected an int or a list of ints");
  PF_ASSIGN(std::vector<int64_t> v, a.ints(i));
  return std::optional<std::vector<int64_t>>{std::move(v)};
}

Result<std::vector<Geometry>> split_geometry(const Geometry& in, const ArgReader& a) {
  PF_ASSIGN(int64_t dim, split_dim(in, a, 2));
  int64_t size = in.shape[dim];
  PF_ASSIGN(auto sections, int_or_list(a, 1));
  if (sections) {
    int64_t sum = 0;
    for (int64_t s : *sections) {
      if (s < 0) return a.error(1, "split sizes must be non-negative");
      sum += s;
    }
    if (sum != size) {
      return a.error(1, "split sizes " + shape_str(*sections) + " sum to " + std::to_string(sum) +
                            ", but dim " + std::to_string(dim) + " has size " +
                            std::to_string(size));
    }
    return pieces(in, dim, *sections);
  }
  int64_t step = a.arg(1).i;
  if (step < 0 || (step == 0 && size != 0)) {
    return a.error(1, "split_size must be positive, got " + std::to_string(step));
  }
  int64_t count = step == 0 ? 1 : std::max<int64_t>((size + step - 1) / step, 1);
  std::vector<int64_t> sizes;
  for (int64_t k = 0; k < count; ++k) sizes.push_back(std::min(step, size - k * step));
  return pieces(in, dim, sizes);
}

Result<std::vector<Geometry>> chunk_geometry(const Geometry& in, const ArgReader& a) {
  PF_ASSIGN(int64_t chunks, a.integer(1));
  if (chunks <= 0) return a.error(1, "chunks must be positive, got " + std::to_string(chunks));
  PF_ASSIGN(int64_t dim, split_dim(in, a, 2));
  int64_t size = in.shape[dim];
  int64_t step = (size + chunks - 1) / chunks;
  if (size == 0) return pieces(in, dim, std::vector<int64_t>(chunks, 0));
  std::vector<int64_t> sizes;
  for (int64_t start = 0; start < size; start += step) sizes.push_back(std::min(step, size - start));
  return pieces(in, dim, sizes);
}

Result<std::vector<Geometry>> tensor_split_geometry(const Geometry& in, const ArgReader& a) {
  PF_ASSIGN(int64_t dim, split_dim(in, a, 2));
  int64_t size = in.shape[dim];
  PF_ASSIGN(auto indices, int_or_list(a, 1));
  std::vector<Geometry> out;
  if (!indices) {
    int64_t n = a.arg(1).i;
    if (n <= 0) return a.error(1, "the number of sections must be positive");
    std::vector<int64_t> sizes;
    for (int64_t k = 0; k < n; ++k) sizes.push_back(size / n + (k < size % n ? 1 : 0));
    return pieces(in, dim, sizes);
  }
  // Split points clamp like slices: [0, i0), [i0, i1), ..., [ik, size).
  int64_t prev = 0;
  auto clamp_point = [&](int64_t p) {
    if (p < 0) p += size;
    return std::clamp<int64_t>(p, 0, size);
  };
  for (int64_t p : *indices) {
    int64_t start = clamp_point(prev), stop = std::max(clamp_point(p), start);
    out.push_back(narrowed(in, dim, start, stop - start));
    prev = p;
  }
  int64_t start = clamp_point(prev);
  out.push_back(narrowed(in, dim, start, size - start));
  return out;
}

Result<std::vector<Geometry>> unbind_geometry(const Geometry& in, const ArgReader& a) {
  PF_ASSIGN(int64_t dim, split_dim(in, a, 1));
  std::vector<Geometry> out;
  for (int64_t i = 0; i < in.shape[dim]; ++i) {
    Geometry g = in;
    g.offset += i * in.strides[dim];
    g.shape.erase(g.shape.begin() + dim);
    g.strides.erase(g.strides.begin() + dim);
    out.push_back(std::move(g));
  }
  return out;
}

// meshgrid's output geometries for inputs of the given (0-d or 1-d) shapes.
template <typename T>
Result<std::vector<Geometry>> meshgrid_geometries(const BoundArgs<T>& a,
                                                  const std::vector<Geometry>& inputs) {
  std::string indexing = "ij";
  if (!a.is_none(1)) {
    PF_ASSIGN(indexing, a.string(1));
  }
  if (indexing != "ij" && indexing != "xy") {
    return a.error(1, "indexing must be 'ij' or 'xy', got '" + indexing + "'");
  }
  if (inputs.empty()) return a.error(0, "expects at least one tensor");
  size_t n = inputs.size();
  Shape shape;
  for (const auto& g : inputs) {
    if (g.shape.size() > 1) {
      return a.error(0, "expects 0-d or 1-d tensors, got shape " + shape_str(g.shape));
    }
    shape.push_back(g.shape.empty() ? 1 : g.shape[0]);
  }
  std::vector<size_t> pos(n);
  for (size_t i = 0; i < n; ++i) pos[i] = i;
  if (indexing == "xy" && n >= 2) {
    std::swap(pos[0], pos[1]);
    std::swap(shape[0], shape[1]);
  }
  std::vector<Geometry> out;
  for (size_t i = 0; i < n; ++i) {
    Geometry g{shape, Strides(n, 0), inputs[i].offset};
    if (!inputs[i].shape.empty()) g.strides[pos[i]] = inputs[i].strides[0];
    out.push_back(std::move(g));
  }
  return out;
}

OpInfo meshgrid_op() {
  OpInfo op;
  op.name = "meshgrid";
  op.aliases = {"torch.meshgrid", "torch.functional.meshgrid"};
  op.params = {param_tensors("tensors", true), param_opt_string("indexing")};
  op.returns_list = true;
  op.is_view = true;  // each element is an expanded view of one input
  op.doc = "coordinate grids from 1-d tensors (indexing 'ij' (default) or 'xy')";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    std::vector<Geometry> in;
    auto ts = a.tensors(0);
    for (const TensorType* t : ts) {
      if (t->dtype != ts[0]->dtype) {
        return a.error(0, "expects all tensors to have the same dtype");
      }
      in.push_back(contiguous_geometry(t->shape));
    }
    PF_ASSIGN(std::vector<Geometry> gs, meshgrid_geometries(a, in));
    std::vector<TensorType> out;
    for (const auto& g : gs) out.push_back(TensorType{ts[0]->dtype, g.shape});
    return out;
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    std::vector<Geometry> in;
    auto ts = a.tensors(0);
    for (const Tensor* t : ts) in.push_back(geometry_of(*t));
    PF_ASSIGN(std::vector<Geometry> gs, meshgrid_geometries(a, in));
    std::vector<Tensor> out;
    for (size_t i = 0; i < gs.size(); ++i) out.push_back(view_with(*ts[i], gs[i]));
    return out;
  };
  return op;
}

// PyTorch names the size argument differently per spelling (x.split(split_size=2),
// torch.split_with_sizes(x, split_sizes=...), x.tensor_split(sections=3)):
// every name maps to the one parameter.
OverloadFn rename_keywords(std::vector<std::string> from, std::string to) {
  return [from = std::move(from), to = std::move(to)](
             std::string_view, std::vector<Arg>&, std::vector<std::pair<std::string, Arg>>& kws) {
    for (auto& kw : kws) {
      if (std::find(from.begin(), from.end(), kw.first) != from.end()) kw.first = to;
    }
    return std::string();
  };
}

}  // namespace

void register_split_ops(OpRegistry& r) {
  r.add(list_view_op("unbind", {"torch.unbind", "Tensor.unbind"},
                     {param_tensor("input"), param_int("dim", 0)}, unbind_geometry,
                     "every index of one dim as a list of views (dim dropped)"));
  OpInfo split = list_view_op(
      "split",
      {"torch.split", "torch.functional.split", "Tensor.split", "torch.split_with_sizes",
       "Tensor.split_with_sizes"},
      {param_tensor("input"), ParamDef{"split_size_or_sections", ParamKind::integer},
       param_int("dim", 0)},
      split_geometry,
      "views of pieces of one dim: an int gives pieces of that size (last smaller), a list "
      "gives those sizes");
  split.overload = rename_keywords({"split_size", "split_sizes"}, "split_size_or_sections");
  r.add(std::move(split));
  r.add(list_view_op("chunk", {"torch.chunk", "Tensor.chunk"},
                     {param_tensor("input"), param_int("chunks"), param_int("dim", 0)},
                     chunk_geometry, "up to `chunks` views of equal size ceil(n / chunks)"));
  OpInfo tensor_split = list_view_op(
      "tensor_split", {"torch.tensor_split", "Tensor.tensor_split"},
      {param_tensor("input"), ParamDef{"indices_or_sections", ParamKind::integer},
       param_int("dim", 0)},
      tensor_split_geometry,
      "an int n gives n near-equal views; a list gives views split at those indices");
  tensor_split.overload = rename_keywords({"sections", "indices"}, "indices_or_sections");
  r.add(std::move(tensor_split));
  r.add(meshgrid_op());
}

}  // namespace pf
