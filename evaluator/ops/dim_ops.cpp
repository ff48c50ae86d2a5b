// Views that rearrange, add, drop or restrict dimensions: transpose, permute,
// t, movedim, expand, expand_as, unsqueeze, squeeze, narrow, select, unfold,
// diagonal, atleast_1d/2d/3d.
// Each is one geometry function (PyTorch's stride rules), shared by type
// inference and the CPU reference.
#include <algorithm>
#include <utility>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

int64_t rank_of(const Geometry& g) {
  return static_cast<int64_t>(g.shape.size());
}

Geometry permuted(const Geometry& in, const std::vector<int64_t>& order) {
  Geometry g{{}, {}, in.offset};
  for (int64_t d : order) {
    g.shape.push_back(in.shape[d]);
    g.strides.push_back(in.strides[d]);
  }
  return g;
}

Result<Geometry> transpose_geometry(const Geometry& in, const ArgReader& a) {
  PF_ASSIGN(int64_t d0, dim_arg(a, 1, rank_of(in)));
  PF_ASSIGN(int64_t d1, dim_arg(a, 2, rank_of(in)));
  Geometry g = in;
  if (in.shape.empty()) return g;
  std::swap(g.shape[d0], g.shape[d1]);
  std::swap(g.strides[d0], g.strides[d1]);
  return g;
}

Result<Geometry> permute_geometry(const Geometry& in, const ArgReader& a) {
  PF_ASSIGN(std::vector<int64_t> dims, a.ints(1));
  if (static_cast<int64_t>(dims.size()) != rank_of(in)) {
    return a.error(1, "expected " + std::to_string(rank_of(in)) + " dims for a tensor of shape " +
                          shape_str(in.shape) + ", got " + std::to_string(dims.size()));
  }
  PF_ASSIGN(std::vector<int64_t> order, wrap_dims(a, 1, dims, rank_of(in)));
  if (in.shape.empty()) return in;
  return permuted(in, order);
}

Result<Geometry> movedim_geometry(const Geometry& in, const ArgReader& a) {
  PF_ASSIGN(std::vector<int64_t> src_raw, a.ints(1));
  PF_ASSIGN(std::vector<int64_t> dst_raw, a.ints(2));
  if (src_raw.size() != dst_raw.size()) {
    return a.error(2, "source and destination must have the same number of dims");
  }
  PF_ASSIGN(std::vector<int64_t> src, wrap_dims(a, 1, src_raw, rank_of(in)));
  PF_ASSIGN(std::vector<int64_t> dst, wrap_dims(a, 2, dst_raw, rank_of(in)));
  if (in.shape.empty()) return in;
  int64_t r = rank_of(in);
  std::vector<int64_t> order(r, -1);
  std::vector<bool> used(r, false);
  for (size_t k = 0; k < src.size(); ++k) {
    order[dst[k]] = src[k];
    used[src[k]] = true;
  }
  int64_t next = 0;
  for (int64_t d = 0; d < r; ++d) {
    if (order[d] >= 0) continue;
    while (used[next]) ++next;
    order[d] = next++;
  }
  return permuted(in, order);
}

// PyTorch's inferExpandGeometry.
Result<Geometry> expand_to(const Geometry& in, const std::vector<int64_t>& sizes,
                           const ArgReader& a, size_t param) {
  int64_t n = static_cast<int64_t>(sizes.size());
  int64_t r = rank_of(in);
  if (n < r) {
    return a.error(param, "the number of sizes (" + std::to_string(n) +
                              ") must be at least the input's rank (" + std::to_string(r) + ")");
  }
  Geometry g{Shape(n), Strides(n), in.offset};
  for (int64_t i = n - 1; i >= 0; --i) {
    int64_t d = r - n + i;
    int64_t size = d >= 0 ? in.shape[d] : 1;
    int64_t stride = d >= 0 ? in.strides[d] : (i + 1 < n ? g.shape[i + 1] * g.strides[i + 1] : 1);
    int64_t target = sizes[i];
    if (target == -1) {
      if (d < 0) return a.error(param, "-1 is not allowed in a new leading dimension");
      target = size;
    }
    if (target < 0) return a.error(param, "invalid size " + std::to_string(target));
    if (size != target) {
      if (size != 1) {
        std::vector<int64_t> s(sizes.begin(), sizes.end());
        return a.error(param, "the expanded size " + std::to_string(target) +
                                  " must match the existing size " + std::to_string(size) +
                                  " at non-singleton dimension " + std::to_string(i) + " (target " +
                                  shape_str(s) + ", input " + shape_str(in.shape) + ")");
      }
      size = target;
      stride = 0;
    }
    g.shape[i] = size;
    g.strides[i] = stride;
  }
  return g;
}

Result<Geometry> unsqueeze_geometry(const Geometry& in, const ArgReader& a) {
  PF_ASSIGN(int64_t dim, dim_arg(a, 1, rank_of(in) + 1));
  Geometry g = in;
  int64_t stride = dim >= rank_of(in) ? 1 : in.shape[dim] * in.strides[dim];
  g.shape.insert(g.shape.begin() + dim, 1);
  g.strides.insert(g.strides.begin() + dim, stride);
  return g;
}

Result<Geometry> squeeze_geometry(const Geometry& in, const ArgReader& a) {
  std::vector<bool> drop(in.shape.size(), false);
  if (a.is_none(1)) {
    for (size_t d = 0; d < in.shape.size(); ++d) drop[d] = in.shape[d] == 1;
  } else {
    PF_ASSIGN(std::vector<int64_t> raw, a.ints(1));
    PF_ASSIGN(std::vector<int64_t> dims, wrap_dims(a, 1, raw, rank_of(in)));
    for (int64_t d : dims) {
      if (!in.shape.empty()) drop[d] = in.shape[d] == 1;
    }
  }
  Geometry g{{}, {}, in.offset};
  for (size_t d = 0; d < in.shape.size(); ++d) {
    if (drop[d]) continue;
    g.shape.push_back(in.shape[d]);
    g.strides.push_back(in.strides[d]);
  }
  return g;
}

Result<Geometry> narrow_geometry(const Geometry& in, const ArgReader& a) {
  if (in.shape.empty()) return a.error(0, "cannot narrow a 0-d tensor");
  PF_ASSIGN(int64_t dim, dim_arg(a, 1, rank_of(in)));
  PF_ASSIGN(int64_t start, a.integer(2));
  PF_ASSIGN(int64_t length, a.integer(3));
  int64_t size = in.shape[dim];
  if (start < -size || start > size) {
    return a.error(2, "start " + std::to_string(start) + " is out of range for dim size " +
                          std::to_string(size));
  }
  if (start < 0) start += size;
  if (length < 0 || start + length > size) {
    return a.error(3, "start (" + std::to_string(start) + ") + length (" + std::to_string(length) +
                          ") exceeds dim size " + std::to_string(size));
  }
  Geometry g = in;
  g.shape[dim] = length;
  g.offset += start * in.strides[dim];
  return g;
}

// atleast_nd: size-1 dims added as PyTorch does (1-d x -> [1, n] for 2-d,
// [1, n, 1] for 3-d; 2-d x -> [a, b, 1] for 3-d); inputs with enough dims are
// returned as they are.
GeometryFn atleast_geometry(size_t n) {
  return [n](const Geometry& in, const ArgReader&) -> Result<Geometry> {
    Geometry g = in;
    const auto unit = [&](size_t at) {
      const int64_t st = at < g.shape.size() ? g.shape[at] * g.strides[at] : 1;
      g.shape.insert(g.shape.begin() + static_cast<int64_t>(at), 1);
      g.strides.insert(g.strides.begin() + static_cast<int64_t>(at), st);
    };
    if (g.shape.empty()) {
      while (g.shape.size() < n) unit(0);
      return g;
    }
    if (n >= 2 && g.shape.size() == 1) unit(0);
    if (n == 3 && g.shape.size() == 2) unit(2);
    return g;
  };
}

// diagonal(input, offset, dim1, dim2): dim1 and dim2 removed, the diagonal
// appended as the last dim (stride the sum of theirs), as PyTorch.
Result<Geometry> diagonal_geometry(const Geometry& in, const ArgReader& a) {
  PF_ASSIGN(int64_t offset, a.integer(1));
  PF_ASSIGN(int64_t d1, dim_arg(a, 2, rank_of(in)));
  PF_ASSIGN(int64_t d2, dim_arg(a, 3, rank_of(in)));
  if (d1 == d2) {
    return a.error(3, "diagonal dimensions cannot be identical " + std::to_string(d1) + ", " +
                          std::to_string(d2));
  }
  int64_t size = 0;
  Geometry g = in;
  if (offset >= 0) {
    size = std::max<int64_t>(std::min(in.shape[d1], in.shape[d2] - offset), 0);
    if (size > 0) g.offset += offset * in.strides[d2];
  } else {
    size = std::max<int64_t>(std::min(in.shape[d1] + offset, in.shape[d2]), 0);
    if (size > 0) g.offset -= offset * in.strides[d1];
  }
  const int64_t stride = in.strides[d1] + in.strides[d2];
  for (int64_t d : {std::max(d1, d2), std::min(d1, d2)}) {
    g.shape.erase(g.shape.begin() + d);
    g.strides.erase(g.strides.begin() + d);
  }
  g.shape.push_back(size);
  g.strides.push_back(stride);
  return g;
}

Result<Geometry> select_geometry(const Geometry& in, const ArgReader& a) {
  if (in.shape.empty()) return a.error(0, "cannot select from a 0-d tensor");
  PF_ASSIGN(int64_t dim, dim_arg(a, 1, rank_of(in)));
  PF_ASSIGN(int64_t index, a.integer(2));
  int64_t size = in.shape[dim];
  if (index < -size || index >= size) {
    return a.error(2, "index " + std::to_string(index) + " is out of range for dim " +
                          std::to_string(dim) + " of size " + std::to_string(size));
  }
  if (index < 0) index += size;
  Geometry g = in;
  g.offset += index * in.strides[dim];
  g.shape.erase(g.shape.begin() + dim);
  g.strides.erase(g.strides.begin() + dim);
  return g;
}

Result<Geometry> unfold_geometry(const Geometry& in, const ArgReader& a) {
  PF_ASSIGN(int64_t dim, dim_arg(a, 1, rank_of(in)));
  PF_ASSIGN(int64_t size, a.integer(2));
  PF_ASSIGN(int64_t step, a.integer(3));
  if (step <= 0) return a.error(3, "step must be > 0");
  int64_t extent = in.shape.empty() ? 1 : in.shape[dim];
  if (size < 0 || size > extent) {
    return a.error(
        2, "size " + std::to_string(size) + " exceeds the dim size " + std::to_string(extent));
  }
  Geometry g = in;
  int64_t stride = in.shape.empty() ? 1 : in.strides[dim];
  if (!in.shape.empty()) {
    g.shape[dim] = (extent - size) / step + 1;
    g.strides[dim] = stride * step;
  }
  g.shape.push_back(size);
  g.strides.push_back(stride);
  return g;
}

}  // namespace

void register_dim_ops(OpRegistry& r) {
  r.add(view_op("transpose",
                {"torch.transpose", "Tensor.transpose", "torch.swapaxes", "Tensor.swapaxes",
                 "torch.swapdims", "Tensor.swapdims"},
                {param_tensor("input"), param_int("dim0"), param_int("dim1")}, transpose_geometry,
                "swaps two dims (a view)"));
  r.add(view_op("permute", {"torch.permute", "Tensor.permute"},
                {param_tensor("input"), param_ints("dims", std::nullopt, true)}, permute_geometry,
                "reorders dims (a view)"));
  r.add(view_op(
      "t", {"torch.t", "Tensor.t"}, {param_tensor("input")},
      [](const Geometry& in, const ArgReader& a) -> Result<Geometry> {
        if (in.shape.size() > 2) {
          return a.error(0, "expects a tensor of rank <= 2, got shape " + shape_str(in.shape));
        }
        Geometry g = in;
        std::reverse(g.shape.begin(), g.shape.end());
        std::reverse(g.strides.begin(), g.strides.end());
        return g;
      },
      "transposes a matrix (0-d and 1-d tensors unchanged)"));
  r.add(view_op("movedim", {"torch.movedim", "Tensor.movedim", "torch.moveaxis", "Tensor.moveaxis"},
                {param_tensor("input"), param_ints("source"), param_ints("destination")},
                movedim_geometry, "moves dims to new positions (a view)"));
  r.add(view_op(
      "expand", {"Tensor.expand", "torch.broadcast_to", "Tensor.broadcast_to"},
      {param_tensor("input"), param_ints("size", std::nullopt, true),
       param_ignored("implicit", Arg::make_bool(false))},
      [](const Geometry& in, const ArgReader& a) -> Result<Geometry> {
        PF_ASSIGN(std::vector<int64_t> sizes, a.ints(1));
        return expand_to(in, sizes, a, 1);
      },
      "broadcasts size-1 dims to larger sizes without copying (-1 keeps a size)"));

  OpInfo expand_as;
  expand_as.name = "expand_as";
  expand_as.aliases = {"Tensor.expand_as"};
  expand_as.params = {param_tensor("input"), param_tensor("other")};
  expand_as.is_view = true;
  expand_as.doc = "input.expand(other.shape)";
  expand_as.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    const Shape& target = a.tensor(1).shape;
    PF_ASSIGN(Geometry g, expand_to(contiguous_geometry(t.shape), target, a, 1));
    return std::vector<TensorType>{TensorType{t.dtype, g.shape}};
  };
  expand_as.cpu = [](const BoundArgs<Tensor>& a,
                     const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    const Tensor& t = a.tensor(0);
    PF_ASSIGN(Geometry g, expand_to(geometry_of(t), a.tensor(1).shape(), a, 1));
    return std::vector<Tensor>{view_with(t, g)};
  };
  r.add(std::move(expand_as));

  r.add(view_op("unsqueeze", {"torch.unsqueeze", "Tensor.unsqueeze"},
                {param_tensor("input"), param_int("dim")}, unsqueeze_geometry,
                "inserts a size-1 dim (a view)"));
  r.add(view_op("squeeze", {"torch.squeeze", "Tensor.squeeze"},
                {param_tensor("input"), param_opt_ints("dim")}, squeeze_geometry,
                "drops size-1 dims (all, or the given ones if they have size 1)"));
  r.add(view_op("narrow", {"torch.narrow", "Tensor.narrow"},
                {param_tensor("input"), param_int("dim"), param_int("start"), param_int("length")},
                narrow_geometry, "the slice [start, start + length) of one dim (a view)"));
  for (size_t n : {1, 2, 3}) {
    const std::string name = "atleast_" + std::to_string(n) + "d";
    r.add(
        view_op(name, {"torch." + name}, {param_tensor("input")}, atleast_geometry(n),
                "the input with size-1 dims added up to " + std::to_string(n) + " dims (a view)"));
  }
  r.add(view_op(
      "diagonal", {"torch.diagonal", "Tensor.diagonal"},
      {param_tensor("input"), param_int("offset", 0), param_int("dim1", 0), param_int("dim2", 1)},
      diagonal_geometry,
      "the diagonal of dims dim1 and dim2 (offset above it), as a last dim (a view)"));
  r.add(view_op("select", {"torch.select", "Tensor.select"},
                {param_tensor("input"), param_int("dim"), param_int("index")}, select_geometry,
                "one index of one dim, dropping the dim (a view)"));
  r.add(
      view_op("unfold", {"Tensor.unfold"},
              {param_tensor("input"), param_int("dimension"), param_int("size"), param_int("step")},
              unfold_geometry, "sliding windows of `size` every `step` as a new last dim"));
}

}  // namespace pf
