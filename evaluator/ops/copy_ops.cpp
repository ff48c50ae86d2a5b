// Layout ops that always copy: pad, roll, flip, repeat, tile,
// repeat_interleave. Each is an exact rearrangement of elements (bytes are
// copied, never converted), built from per-dim index maps or strided copies.
#include <algorithm>
#include <cstdlib>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

// A copy op: `shape` is the output shape rule, `run` the CPU reference (given
// the inferred output type).
using CopyShapeFn = std::function<Result<Shape>(const Shape&, const ArgReader&)>;
using CopyRunFn = std::function<Result<Tensor>(const Tensor&, const ArgReader&, const TensorType&)>;

OpInfo copy_op(std::string name, std::vector<std::string> aliases, std::vector<ParamDef> params,
               CopyShapeFn shape, CopyRunFn run, std::string doc) {
  OpInfo op;
  op.name = std::move(name);
  op.aliases = std::move(aliases);
  op.params = std::move(params);
  op.doc = std::move(doc);
  op.infer = [shape](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& t = a.tensor(0);
    PF_ASSIGN(Shape s, shape(t.shape, a));
    return std::vector<TensorType>{TensorType{t.dtype, s}};
  };
  op.cpu = [run](const BoundArgs<Tensor>& a,
                 const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(Tensor t, run(a.tensor(0), a, out[0]));
    return std::vector<Tensor>{t};
  };
  return op;
}

// --- pad ----------------------------------------------------------------------

enum class PadMode : uint8_t { constant, reflect, replicate, circular };

struct PadPlan {
  PadMode mode = PadMode::constant;
  double value = 0;
  std::vector<std::pair<int64_t, int64_t>> before_after;  // per dim of the input
  Shape out;
};

Result<PadPlan> plan_pad(const Shape& in, const ArgReader& a) {
  PadPlan p;
  PF_ASSIGN(std::vector<int64_t> pad, a.ints(1));
  PF_ASSIGN(std::string mode, a.string(2));
  int64_t rank = static_cast<int64_t>(in.size());
  if (pad.size() % 2 != 0) return a.error(1, "padding length must be even");
  int64_t padded = static_cast<int64_t>(pad.size()) / 2;
  if (padded > rank) {
    return a.error(1, "padding length " + std::to_string(pad.size()) +
                          " is too large for a tensor of rank " + std::to_string(rank));
  }
  if (mode == "constant") {
    p.mode = PadMode::constant;
  } else if (mode == "reflect") {
    p.mode = PadMode::reflect;
  } else if (mode == "replicate") {
    p.mode = PadMode::replicate;
  } else if (mode == "circular") {
    p.mode = PadMode::circular;
  } else {
    return a.error(2, "mode must be 'constant', 'reflect', 'replicate' or 'circular', got '" +
                          mode + "'");
  }
  if (!a.is_none(3)) {
    PF_ASSIGN(p.value, a.real(3));
    if (p.mode != PadMode::constant && p.value != 0) {
      return a.error(3, "padding mode '" + mode + "' does not take a value");
    }
  }
  if (p.mode != PadMode::constant && (rank < padded + 1 || rank > padded + 2)) {
    return a.error(1, "mode '" + mode + "' with " + std::to_string(padded) +
                          " padded dims expects an input of rank " + std::to_string(padded + 1) +
                          " or " + std::to_string(padded + 2) + ", got " + std::to_string(rank));
  }
  p.before_after.assign(in.size(), {0, 0});
  p.out = in;
  for (int64_t k = 0; k < padded; ++k) {
    int64_t d = rank - 1 - k;
    int64_t lo = pad[2 * k], hi = pad[2 * k + 1];
    int64_t size = in[d];
    if (p.mode != PadMode::constant) {
      if (lo < 0 || hi < 0) return a.error(1, "negative padding needs mode 'constant'");
      bool ok = p.mode == PadMode::reflect ? (lo < size && hi < size)
                : p.mode == PadMode::circular ? (lo <= size && hi <= size)
                                              : size > 0;
      if (!ok) {
        return a.error(1, "padding (" + std::to_string(lo) + ", " + std::to_string(hi) +
                              ") is too large for dim " + std::to_string(d) + " of size " +
                              std::to_string(size) + " in mode '" + mode + "'");
      }
    }
    if (size + lo + hi < 0) {
      return a.error(1, "padding (" + std::to_string(lo) + ", " + std::to_string(hi) +
                            ") gives a negative size for dim " + std::to_string(d));
    }
    p.before_after[d] = {lo, hi};
    p.out[d] = size + lo + hi;
  }
  return p;
}

int64_t pad_source(PadMode mode, int64_t j, int64_t size) {
  switch (mode) {
    case PadMode::constant: return j >= 0 && j < size ? j : -1;
    case PadMode::reflect:
      if (j < 0) return -j;
      return j >= size ? 2 * (size - 1) - j : j;
    case PadMode::replicate: return std::clamp<int64_t>(j, 0, size - 1);
    case PadMode::circular: return ((j % size) + size) % size;
  }
  return -1;
}

Result<Tensor> run_pad(const Tensor& t, const ArgReader& a, const TensorType&) {
  PF_ASSIGN(PadPlan p, plan_pad(t.shape(), a));
  Tensor cur = t;
  for (size_t d = 0; d < t.shape().size(); ++d) {
    auto [lo, hi] = p.before_after[d];
    if (lo == 0 && hi == 0) continue;
    int64_t size = t.shape()[d];
    std::vector<int64_t> index;
    for (int64_t j = 0; j < p.out[d]; ++j) index.push_back(pad_source(p.mode, j - lo, size));
    cur = take_along(cur, static_cast<int64_t>(d), index, p.value);
  }
  return cur.shares_storage(t) ? t.contiguous_copy() : cur;
}

// --- roll, flip ------------------------------------------------------------------

// Checks roll's shifts/dims against the input rank (type inference and CPU).
Result<std::vector<int64_t>> roll_dims(const ArgReader& a, int64_t rank) {
  PF_ASSIGN(std::vector<int64_t> shifts, a.ints(1));
  if (a.is_none(2)) {
    if (shifts.size() != 1) return a.error(1, "without dims, expects exactly one shift");
    return std::vector<int64_t>{};
  }
  PF_ASSIGN(std::vector<int64_t> raw, a.ints(2));
  if (raw.size() != shifts.size() || raw.empty()) {
    return a.error(2, "shifts and dims must have the same, non-zero length (" +
                          std::to_string(shifts.size()) + " vs " + std::to_string(raw.size()) + ")");
  }
  std::vector<int64_t> dims;
  for (int64_t d : raw) {
    PF_ASSIGN(std::vector<int64_t> w, wrap_dims(a, 2, {d}, rank));
    dims.push_back(w[0]);
  }
  return dims;
}

Result<Tensor> run_roll(const Tensor& t, const ArgReader& a, const TensorType&) {
  PF_ASSIGN(std::vector<int64_t> dims, roll_dims(a, t.dim()));
  PF_ASSIGN(std::vector<int64_t> shifts, a.ints(1));
  if (t.numel() == 0 || t.dim() == 0) return t.contiguous_copy();
  if (dims.empty()) {
    Tensor flat = reshape_tensor(t, {t.numel()});
    int64_t n = t.numel();
    std::vector<int64_t> index(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) index[j] = (((j - shifts[0]) % n) + n) % n;
    return reshape_tensor(take_along(flat, 0, index, 0), t.shape());
  }
  Tensor cur = t;
  for (size_t k = 0; k < dims.size(); ++k) {
    int64_t n = t.shape()[dims[k]];
    std::vector<int64_t> index(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) index[j] = (((j - shifts[k]) % n) + n) % n;
    cur = take_along(cur, dims[k], index, 0);
  }
  return cur.shares_storage(t) ? t.contiguous_copy() : cur;
}

Result<Tensor> run_flip(const Tensor& t, const ArgReader& a, const TensorType&) {
  PF_ASSIGN(std::vector<int64_t> raw, a.ints(1));
  PF_ASSIGN(std::vector<int64_t> dims, wrap_dims(a, 1, raw, t.dim()));
  Geometry g = geometry_of(t);
  for (int64_t d : dims) {
    if (g.shape.empty() || g.shape[d] == 0) continue;
    g.offset += (g.shape[d] - 1) * g.strides[d];
    g.strides[d] = -g.strides[d];
  }
  Tensor out = Tensor::zeros(t.dtype(), t.shape());
  copy_strided(view_with(t, g), out);  // the negative-stride view never escapes
  return out;
}

// --- repeat, tile, repeat_interleave -------------------------------------------------

Result<Shape> repeat_shape(const Shape& in, const ArgReader& a) {
  PF_ASSIGN(std::vector<int64_t> reps, a.ints(1));
  if (reps.size() < in.size()) {
    return a.error(1, "the number of repeats (" + std::to_string(reps.size()) +
                          ") must be at least the input's rank (" + std::to_string(in.size()) + ")");
  }
  Shape out(reps.size());
  size_t lead = reps.size() - in.size();
  for (size_t d = 0; d < reps.size(); ++d) {
    if (reps[d] < 0) return a.error(1, "repeats must be non-negative");
    out[d] = reps[d] * (d < lead ? 1 : in[d - lead]);
  }
  return out;
}

// tile pads the repeats with leading 1s when there are fewer than dims.
std::vector<int64_t> tile_reps(const Shape& in, std::vector<int64_t> reps) {
  if (reps.size() < in.size()) reps.insert(reps.begin(), in.size() - reps.size(), 1);
  return reps;
}

Result<Tensor> repeat_copy(const Tensor& t, const std::vector<int64_t>& reps) {
  // The output viewed as [r0, s0, r1, s1, ...] is the input broadcast along every r.
  size_t lead = reps.size() - t.shape().size();
  Shape shape2;
  Strides src2, dst2;
  Shape out_shape;
  for (size_t d = 0; d < reps.size(); ++d) {
    int64_t s = d < lead ? 1 : t.shape()[d - lead];
    int64_t st = d < lead ? 0 : t.strides()[d - lead];
    shape2.insert(shape2.end(), {reps[d], s});
    src2.insert(src2.end(), {0, st});
    out_shape.push_back(reps[d] * s);
  }
  Tensor out = Tensor::zeros(t.dtype(), out_shape);
  Strides oc = contiguous_strides(out_shape);
  for (size_t d = 0; d < reps.size(); ++d) {
    int64_t s = shape2[2 * d + 1];
    dst2.insert(dst2.end(), {oc[d] * s, oc[d]});
  }
  Tensor dst = Tensor::view_of(out, shape2, dst2, 0);
  copy_strided(Tensor::view_of(t, shape2, src2, t.offset()), dst);
  return out;
}

Result<Shape> repeat_interleave_shape(const Shape& in, const ArgReader& a) {
  if (a.is_tensor(1)) {
    return a.error(1, "repeats given as a tensor make the output shape data-dependent; pass an int");
  }
  PF_ASSIGN(int64_t reps, a.integer(1));
  if (reps < 0) return a.error(1, "repeats must be non-negative");
  if (a.is_none(2)) return Shape{shape_numel(in) * reps};
  PF_ASSIGN(int64_t dim, dim_arg(a, 2, static_cast<int64_t>(in.size())));
  Shape out = in.empty() ? Shape{1} : in;
  out[dim] *= reps;
  return out;
}

Result<Tensor> run_repeat_interleave(const Tensor& t, const ArgReader& a, const TensorType& ot) {
  int64_t reps = a.arg(1).i;
  Tensor src = t;
  int64_t dim = 0;
  if (a.is_none(2)) {
    src = reshape_tensor(t, {t.numel()});
  } else {
    PF_ASSIGN(dim, dim_arg(a, 2, t.dim()));
    if (t.dim() == 0) src = reshape_tensor(t, {1});
  }
  std::vector<int64_t> index(static_cast<size_t>(ot.shape[dim]));
  for (size_t j = 0; j < index.size(); ++j) index[j] = static_cast<int64_t>(j) / reps;
  return take_along(src, dim, index, 0);
}

}  // namespace

void register_copy_ops(OpRegistry& r) {
  r.add(copy_op(
      "pad", {"torch.nn.functional.pad", "torch._C._nn.pad"},
      {param_tensor("input"), param_ints("pad"), param_string("mode", "constant"),
       param_opt_real("value")},
      [](const Shape& in, const ArgReader& a) -> Result<Shape> {
        PF_ASSIGN(PadPlan p, plan_pad(in, a));
        return p.out;
      },
      run_pad,
      "pads (last dim first: (left, right, top, bottom, ...)); constant (negative crops), "
      "reflect, replicate, circular"));
  r.add(copy_op(
      "roll", {"torch.roll", "Tensor.roll"},
      {param_tensor("input"), param_ints("shifts"), param_opt_ints("dims")},
      [](const Shape& in, const ArgReader& a) -> Result<Shape> {
        PF_TRY(roll_dims(a, static_cast<int64_t>(in.size())));
        return in;
      },
      run_roll,
      "rotates elements along dims (the flattened tensor without dims)"));
  r.add(copy_op(
      "flip", {"torch.flip", "Tensor.flip"},
      {param_tensor("input"), param_ints("dims", std::nullopt, true)},
      [](const Shape& in, const ArgReader& a) -> Result<Shape> {
        PF_ASSIGN(std::vector<int64_t> raw, a.ints(1));
        PF_TRY(wrap_dims(a, 1, raw, static_cast<int64_t>(in.size())));
        return in;
      },
      run_flip, "reverses the order of elements along dims (a copy, as in PyTorch)"));
  r.add(copy_op(
      "repeat", {"Tensor.repeat"}, {param_tensor("input"), param_ints("repeats", std::nullopt, true)},
      repeat_shape,
      [](const Tensor& t, const ArgReader& a, const TensorType&) -> Result<Tensor> {
        PF_ASSIGN(std::vector<int64_t> reps, a.ints(1));
        return repeat_copy(t, reps);
      },
      "tiles the tensor repeats[i] times along dim i (leading repeats add dims)"));
  r.add(copy_op(
      "tile", {"torch.tile", "Tensor.tile"},
      {param_tensor("input"), param_ints("dims", std::nullopt, true)},
      [](const Shape& in, const ArgReader& a) -> Result<Shape> {
        PF_ASSIGN(std::vector<int64_t> reps, a.ints(1));
        reps = tile_reps(in, reps);
        for (int64_t v : reps) {
          if (v < 0) return a.error(1, "repeats must be non-negative");
        }
        Shape out(reps.size());
        size_t lead = reps.size() - in.size();
        for (size_t d = 0; d < reps.size(); ++d) out[d] = reps[d] * (d < lead ? 1 : in[d - lead]);
        return out;
      },
      [](const Tensor& t, const ArgReader& a, const TensorType&) -> Result<Tensor> {
        PF_ASSIGN(std::vector<int64_t> reps, a.ints(1));
        return repeat_copy(t, tile_reps(t.shape(), reps));
      },
      "repeat, with fewer repeats than dims meaning leading 1s"));
  r.add(copy_op(
      "repeat_interleave", {"torch.repeat_interleave", "Tensor.repeat_interleave"},
      {param_tensor("input"), ParamDef{"repeats", ParamKind::tensor_or_scalar},
       param_opt_int("dim"), param_opt_int("output_size")},
      repeat_interleave_shape, run_repeat_interleave,
      "repeats each element `repeats` times along dim (the flattened tensor without dim)"));
}

}  // namespace pf
