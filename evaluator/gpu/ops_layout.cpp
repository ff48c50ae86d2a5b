// Layout copies, as PyTorch eager launches them:
// - cat / stack: one batched-cat kernel per 64 inputs when there are several
//   inputs of the output's dtype and the output has at most 4 dims
//   (PyTorch's parallel_cat conditions): the contiguous kernel when every
//   input is contiguous, else the strided one (PyTorch's strided path); one
//   copy per input into its slice of the output otherwise (offsets beyond 32
//   bits, negative strides); stack is cat of unsqueezed views;
// - pad: constant = fill + a copy of the (cropped) input into the interior
//   (constant_pad_nd; a plain clone when no pad is positive); reflect,
//   replicate and circular = one remap kernel (PyTorch: one kernel for
//   reflect/replicate, one copy per side for circular);
// - roll: one kernel per rolled dim (the flattened tensor without dims), on a
//   contiguous input; flip: one kernel;
// - repeat / tile: one copy of the expanded input into the unfolded output;
//   repeat_interleave: one copy of an expanded view (PyTorch's clone).
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/elementwise.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "evaluator/gpu/movement.h"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/layout_util.h"

namespace pf::gpu {
namespace {

using Outputs = Result<std::vector<DeviceTensor>>;

Outputs one(DeviceTensor t) {
  return std::vector<DeviceTensor>{std::move(t)};
}

// A view of `t` narrowed to [start, start + len) along dim.
DeviceTensor narrowed(const DeviceTensor& t, int64_t dim, int64_t start, int64_t len) {
  Shape s = t.shape();
  s[dim] = len;
  return DeviceTensor::view_of(t, s, t.strides(), t.offset() + start * t.strides()[dim]);
}

// --- cat / stack -----------------------------------------------------------------------

enum class BatchedCat { none, contiguous, strided };

// The largest element offset a non-empty view reaches from its first
// element, or -1 when a dim it walks has a negative stride (the strides of
// size-1 dims never matter).
int64_t max_offset(const DeviceTensor& t) {
  int64_t most = 0;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.shape()[d] <= 1) continue;
    if (t.strides()[d] < 0) return -1;
    most += (t.shape()[d] - 1) * t.strides()[d];
  }
  return most;
}

// A stride as the strided cat kernel takes it: 0 for a size-1 dim, whose
// coordinate is always 0 (its stride may be anything).
unsigned cat_stride(const DeviceTensor& t, int64_t d) {
  return t.shape()[d] == 1 ? 0u : static_cast<unsigned>(t.strides()[d]);
}

BatchedCat batched_cat_kind(const std::vector<const DeviceTensor*>& parts,
                            const DeviceTensor& out) {
  constexpr int64_t kIndexLimit = int64_t{1} << 31;
  if (parts.size() < 2 || out.dim() > PF_CAT_MAX_DIMS || out.numel() >= kIndexLimit) {
    return BatchedCat::none;
  }
  bool contiguous = true;
  for (const DeviceTensor* t : parts) {
    if (t->dtype() != out.dtype()) return BatchedCat::none;
    contiguous = contiguous && t->is_contiguous();
  }
  if (contiguous) return BatchedCat::contiguous;
  const int64_t out_most = max_offset(out);
  if (out_most < 0 || out_most >= kIndexLimit) return BatchedCat::none;
  for (const DeviceTensor* t : parts) {
    if (t->numel() == 0) continue;
    const int64_t most = max_offset(*t);
    if (most < 0 || most >= kIndexLimit) return BatchedCat::none;
  }
  return BatchedCat::strided;
}

Status add_batched_cat(PlanBuilder& b, const std::vector<const DeviceTensor*>& parts, int64_t dim,
                       const DeviceTensor& out) {
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < out.dim(); ++d) inner *= out.shape()[d];
  const int64_t es = static_cast<int64_t>(out.element_size());
  const int64_t vec = 16 / es;
  int64_t out_row = out.shape()[dim] * inner;
  bool vectorize = out.data_ptr() % 16 == 0 && out_row % vec == 0;
  struct Part {
    const DeviceTensor* t;
    int64_t offset, chunk;
  };
  std::vector<Part> used;
  int64_t start = 0;
  for (const DeviceTensor* t : parts) {
    const int64_t len = t->shape()[dim];
    if (t->numel() > 0) {
      used.push_back({t, start * inner, len * inner});
      vectorize = vectorize && t->data_ptr() % 16 == 0 && (start * inner) % vec == 0 &&
                  (len * inner) % vec == 0;
    }
    start += len;
  }
  const int64_t unit = vectorize ? vec : 1;
  const int64_t sms = b.properties().sm_count > 0 ? b.properties().sm_count : 132;
  for (size_t first = 0; first < used.size(); first += PF_CAT_BATCH) {
    PfCatParams p{};
    p.out = out.data_ptr();
    p.out_row = static_cast<unsigned>(out_row / unit);
    int64_t most = 1;
    for (size_t k = first; k < used.size() && k < first + PF_CAT_BATCH; ++k) {
      const Part& part = used[k];
      b.use(*part.t);
      PfCatEntry& e = p.in[p.count++];
      e.ptr = part.t->data_ptr();
      e.numel = static_cast<unsigned>(part.t->numel() / unit);
      e.out_offset = static_cast<unsigned>(part.offset / unit);
      e.chunk = make_divider(static_cast<uint32_t>(part.chunk / unit));
      most = std::max<int64_t>(most, e.numel);
    }
    cuda::LaunchConfig lc;
    lc.grid = {std::min<int64_t>((most + PF_CAT_THREADS - 1) / PF_CAT_THREADS, 2 * sms), p.count,
               1};
    lc.block = {PF_CAT_THREADS, 1, 1};
    PF_TRY(b.add_kernel("layout.cu", movement_dtype(out.dtype()),
                        vectorize ? "pf_cat_vec" : "pf_cat", lc, p));
  }
  return ok_status();
}

// One launch per PF_CAT_BATCH non-empty inputs; dims are passed innermost
// first.
Status add_strided_cat(PlanBuilder& b, const std::vector<const DeviceTensor*>& parts, int64_t dim,
                       const DeviceTensor& out) {
  const int dims = static_cast<int>(out.dim());
  const auto slot = [dims](int64_t d) { return static_cast<size_t>(dims - 1 - d); };
  PfCatStridedParams base{};
  base.out = out.data_ptr();
  base.dims = dims;
  base.cat_dim = static_cast<int>(slot(dim));
  for (int64_t d = 0; d < dims; ++d) {
    base.sizes[slot(d)] = make_divider(static_cast<uint32_t>(std::max<int64_t>(out.shape()[d], 1)));
    base.out_strides[slot(d)] = cat_stride(out, d);
  }
  std::vector<const DeviceTensor*> used;
  std::vector<int64_t> starts;
  int64_t start = 0;
  for (const DeviceTensor* t : parts) {
    if (t->numel() > 0) {
      used.push_back(t);
      starts.push_back(start);
    }
    start += t->shape()[dim];
  }
  const int64_t sms = b.properties().sm_count > 0 ? b.properties().sm_count : 132;
  for (size_t first = 0; first < used.size(); first += PF_CAT_BATCH) {
    PfCatStridedParams p = base;
    int64_t most = 1;
    for (size_t k = first; k < used.size() && k < first + PF_CAT_BATCH; ++k) {
      const DeviceTensor& t = *used[k];
      b.use(t);
      PfCatStridedEntry& e = p.in[p.count++];
      e.ptr = t.data_ptr();
      e.numel = static_cast<unsigned>(t.numel());
      e.out_offset = static_cast<unsigned>(starts[k] * out.strides()[dim]);
      e.cat_size = make_divider(static_cast<uint32_t>(t.shape()[dim]));
      for (int64_t d = 0; d < dims; ++d) e.strides[slot(d)] = cat_stride(t, d);
      most = std::max<int64_t>(most, t.numel());
    }
    cuda::LaunchConfig lc;
    lc.grid = {std::min<int64_t>((most + PF_CAT_THREADS - 1) / PF_CAT_THREADS, 2 * sms), p.count,
               1};
    lc.block = {PF_CAT_THREADS, 1, 1};
    PF_TRY(b.add_kernel("layout.cu", movement_dtype(out.dtype()), "pf_cat_strided", lc, p));
  }
  return ok_status();
}

Status add_cat(PlanBuilder& b, const std::vector<const DeviceTensor*>& parts, int64_t dim,
               const DeviceTensor& out) {
  b.use(out);
  if (out.numel() == 0) return ok_status();
  switch (batched_cat_kind(parts, out)) {
    case BatchedCat::contiguous:
      return add_batched_cat(b, parts, dim, out);
    case BatchedCat::strided:
      return add_strided_cat(b, parts, dim, out);
    case BatchedCat::none:
      break;
  }
  int64_t start = 0;
  for (const DeviceTensor* t : parts) {
    const int64_t len = t->shape()[dim];
    if (t->numel() > 0) PF_TRY(copy_into(b, *t, narrowed(out, dim, start, len)));
    start += len;
  }
  return ok_status();
}

Outputs run_cat(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  if (y.numel() == 0) return one(y);
  PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, y.dim()));
  std::vector<const DeviceTensor*> parts;
  for (const DeviceTensor* t : a.tensors(0)) {
    if (!(t->dim() == 1 && t->shape()[0] == 0)) parts.push_back(t);  // PyTorch skips 1-d empties
  }
  PF_TRY(add_cat(b, parts, dim, y));
  return one(y);
}

Outputs run_stack(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, y.dim()));
  std::vector<DeviceTensor> views;
  for (const DeviceTensor* t : a.tensors(0)) {
    Shape s = t->shape();
    Strides st = t->strides();
    const int64_t stride = dim < t->dim() ? s[dim] * st[dim] : 1;
    s.insert(s.begin() + dim, 1);
    st.insert(st.begin() + dim, stride);
    views.push_back(DeviceTensor::view_of(*t, s, st, t->offset()));
  }
  std::vector<const DeviceTensor*> parts;
  parts.reserve(views.size());
  for (const auto& v : views) parts.push_back(&v);
  PF_TRY(add_cat(b, parts, dim, y));
  return one(y);
}

// --- pad ------------------------------------------------------------------------------------

Status add_fill(PlanBuilder& b, const DeviceTensor& out, double value) {
  PfFillParams p{};
  p.out = out.data_ptr();
  p.n = out.numel();
  p.value = value;
  p.value_i = out.dtype() == DType::boolean ? (value != 0 ? 1 : 0) : static_cast<int64_t>(value);
  if (p.n == 0) return ok_status();
  b.use(out);
  return b.add_kernel("copy.cu", out.dtype(), "pf_fill",
                      linear_launch(p.n, PF_EW_THREADS * vector_width(out.dtype()), PF_EW_THREADS),
                      p);
}

Outputs run_pad(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(std::vector<int64_t> pad, a.ints(1));
  PF_ASSIGN(std::string mode, a.string(2));
  double value = 0;
  if (!a.is_none(3)) {
    PF_ASSIGN(value, a.real(3));
  }
  const int64_t rank = x.dim();
  std::vector<int64_t> lo(static_cast<size_t>(rank), 0), hi(static_cast<size_t>(rank), 0);
  for (size_t k = 0; 2 * k + 1 < pad.size(); ++k) {
    const int64_t d = rank - 1 - static_cast<int64_t>(k);
    lo[d] = pad[2 * k];
    hi[d] = pad[2 * k + 1];
  }
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  if (mode == "constant") {
    // Crop for negative pads, then fill and copy into the interior.
    DeviceTensor src = x, dst = y;
    bool any_positive = false;
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t in_lo = std::max<int64_t>(-lo[d], 0), in_hi = std::max<int64_t>(-hi[d], 0);
      const int64_t out_lo = std::max<int64_t>(lo[d], 0), out_hi = std::max<int64_t>(hi[d], 0);
      any_positive = any_positive || out_lo > 0 || out_hi > 0;
      const int64_t len = std::max<int64_t>(x.shape()[d] - in_lo - in_hi, 0);
      src = narrowed(src, d, std::min(in_lo, x.shape()[d]), len);
      dst = narrowed(dst, d, out_lo, len);
    }
    if (any_positive) PF_TRY(add_fill(b, y, value));
    if (src.numel() > 0) PF_TRY(copy_into(b, src, dst));
    return one(y);
  }
  int remap_mode = mode == "reflect"     ? PF_REMAP_REFLECT
                   : mode == "replicate" ? PF_REMAP_REPLICATE
                   : mode == "circular"  ? PF_REMAP_SHIFT
                                         : -1;
  if (remap_mode < 0) return a.error(2, "unknown padding mode '" + mode + "'");
  std::vector<RemapDim> dims(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) {
    if (lo[d] != 0 || hi[d] != 0) dims[d] = RemapDim{remap_mode, lo[d]};
  }
  PF_TRY(add_remap(b, x, y, dims));
  return one(y);
}

// --- roll, flip ---------------------------------------------------------------------------------

Outputs run_roll(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(std::vector<int64_t> shifts, a.ints(1));
  if (x.numel() == 0 || x.dim() == 0) {
    PF_ASSIGN(DeviceTensor c, materialize(b, x, x.dtype()));
    return one(c);
  }
  PF_ASSIGN(DeviceTensor cur, contiguous(b, x));
  std::vector<int64_t> dims;
  if (a.is_none(2)) {
    cur = DeviceTensor::view_of(cur, {cur.numel()}, {1}, cur.offset());
    dims = {0};
  } else {
    PF_ASSIGN(std::vector<int64_t> raw, a.ints(2));
    PF_ASSIGN(dims, layout::wrap_dims(a, 2, raw, x.dim()));
  }
  for (size_t k = 0; k < dims.size(); ++k) {
    const int64_t n = cur.shape()[dims[k]];
    std::vector<RemapDim> remap(static_cast<size_t>(cur.dim()));
    remap[dims[k]] = RemapDim{PF_REMAP_SHIFT, ((shifts[k] % n) + n) % n};
    PF_ASSIGN(DeviceTensor next, b.allocate(cur.type()));
    PF_TRY(add_remap(b, cur, next, remap));
    cur = next;
  }
  return one(
      DeviceTensor::view_of(cur, out[0].shape, contiguous_strides(out[0].shape), cur.offset()));
}

Outputs run_flip(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(std::vector<int64_t> raw, a.ints(1));
  PF_ASSIGN(std::vector<int64_t> dims, layout::wrap_dims(a, 1, raw, x.dim()));
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  std::vector<RemapDim> remap(static_cast<size_t>(x.dim()));
  for (int64_t d : dims) remap[d].mode = PF_REMAP_FLIP;
  PF_TRY(add_remap(b, x, y, remap));
  return one(y);
}

// --- repeat, tile, repeat_interleave
// ---------------------------------------------------------------

// The output viewed as [r0, s0, r1, s1, ...] is the input broadcast along each r.
Outputs repeat_copy(PlanBuilder& b, const DeviceTensor& x, const std::vector<int64_t>& reps,
                    const TensorType& out) {
  PF_ASSIGN(DeviceTensor y, b.allocate(out));
  if (y.numel() == 0) return one(y);
  const size_t lead = reps.size() - static_cast<size_t>(x.dim());
  const Strides oc = contiguous_strides(out.shape);
  Shape shape2;
  Strides src2, dst2;
  for (size_t d = 0; d < reps.size(); ++d) {
    const int64_t s = d < lead ? 1 : x.shape()[d - lead];
    const int64_t st = d < lead ? 0 : x.strides()[d - lead];
    shape2.insert(shape2.end(), {reps[d], s});
    src2.insert(src2.end(), {0, st});
    dst2.insert(dst2.end(), {oc[d] * s, oc[d]});
  }
  PF_TRY(copy_into(b, DeviceTensor::view_of(x, shape2, src2, x.offset()),
                   DeviceTensor::view_of(y, shape2, dst2, y.offset())));
  return one(y);
}

Outputs run_repeat(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  PF_ASSIGN(std::vector<int64_t> reps, a.ints(1));
  return repeat_copy(b, a.tensor(0), reps, out[0]);
}

Outputs run_tile(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(std::vector<int64_t> reps, a.ints(1));
  if (reps.size() < static_cast<size_t>(x.dim())) {
    reps.insert(reps.begin(), static_cast<size_t>(x.dim()) - reps.size(), 1);
  }
  return repeat_copy(b, x, reps, out[0]);
}

Outputs run_repeat_interleave(const GpuArgs& a, const std::vector<TensorType>& out,
                              PlanBuilder& b) {
  DeviceTensor x = a.tensor(0);
  PF_ASSIGN(int64_t reps, a.integer(1));
  int64_t dim = 0;
  if (a.is_none(2)) {
    if (x.is_contiguous()) {
      x = DeviceTensor::view_of(x, {x.numel()}, {1}, x.offset());
    } else {
      PF_ASSIGN(DeviceTensor c, materialize(b, x, x.dtype()));
      x = DeviceTensor::view_of(c, {c.numel()}, {1}, c.offset());
    }
  } else {
    if (x.dim() == 0) x = DeviceTensor::view_of(x, {1}, {1}, x.offset());
    PF_ASSIGN(dim, layout::dim_arg(a, 2, x.dim()));
  }
  Shape s = x.shape();
  Strides st = x.strides();
  s.insert(s.begin() + dim + 1, reps);
  st.insert(st.begin() + dim + 1, 0);
  PF_ASSIGN(DeviceTensor c, materialize(b, DeviceTensor::view_of(x, s, st, x.offset()), x.dtype()));
  return one(DeviceTensor::view_of(c, out[0].shape, contiguous_strides(out[0].shape), c.offset()));
}

// Only the int form: a tensor `repeats` makes the shape data-dependent (the
// CPU op refuses it at inference too).
Status int_repeats(const ArgReader& a) {
  if (a.is_tensor(1)) {
    return make_error(ErrorCode::unsupported,
                      "repeat_interleave with tensor repeats has no GPU baseline");
  }
  return ok_status();
}

}  // namespace

void register_gpu_layout_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"cat", run_cat, all_dtypes()});
  r.add(GpuOpInfo{"stack", run_stack, all_dtypes()});
  r.add(GpuOpInfo{"pad", run_pad, all_dtypes()});
  r.add(GpuOpInfo{"roll", run_roll, all_dtypes()});
  r.add(GpuOpInfo{"flip", run_flip, all_dtypes()});
  r.add(GpuOpInfo{"repeat", run_repeat, all_dtypes()});
  r.add(GpuOpInfo{"tile", run_tile, all_dtypes()});
  r.add(GpuOpInfo{"repeat_interleave", run_repeat_interleave, all_dtypes(), int_repeats});
}

}  // namespace pf::gpu
