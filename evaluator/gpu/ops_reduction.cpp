// Reductions (kernels reduce.cu, reduce_float.cu): sum, nansum, mean, prod,
// amax/amin, max/min (whole tensor and with dim), argmax/argmin, all/any,
// var/std, norm/vector_norm, logsumexp, normalize. One kernel per op (mean
// of a dtype= conversion and logsumexp add one pass each; normalize is norm,
// clamp_min and div, matrix_norm vector_norm and amax/amin, as in PyTorch).
#include <algorithm>
#include <cmath>

#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/gpu/reduce_plan.h"
#include "evaluator/ops/reduce_util.h"

namespace pf::gpu {
namespace {

struct ReduceCall {
  std::string file = "reduce.cu";
  std::string kernel;  // "sum" -> pf_reduce_sum
  int flags = 0;
  double factor = 1;
  double p = 0;
  const DeviceTensor* aux = nullptr;
  const DeviceTensor* index_out = nullptr;
};

// Adds one reduction of `in` over `reduced` into `out` (contiguous, the kept dims).
Status launch_reduce(PlanBuilder& b, const DeviceTensor& in, const std::vector<bool>& reduced,
                     const DeviceTensor& out, const ReduceCall& call) {
  b.use(in);
  b.use(out);
  ReduceGeometry g;
  g.shape = in.shape();
  g.strides = in.strides();
  g.in_size = in.element_size();
  g.out_size = out.element_size();
  g.reduced = reduced;
  g.in_address = in.data_ptr();
  g.vec = vector_width(in.dtype());
  g.sm_count = b.properties().sm_count > 0 ? b.properties().sm_count : 132;
  PF_ASSIGN(ReduceConfig c, plan_reduce_launch(g));
  if (c.n_out == 0) return ok_status();
  PfReduceParams p{};
  p.in = in.data_ptr();
  p.out = out.data_ptr();
  p.n_out = c.n_out;
  p.n_red = c.n_red;
  p.out_dtype = static_cast<int>(out.dtype());
  p.vectorize = c.vectorize ? 1 : 0;
  p.layout = c.inner ? PF_REDUCE_INNER : c.serial ? PF_REDUCE_SERIAL : PF_REDUCE_OUTER;
  p.out_vec = c.out_vec;
  p.out_elem_bytes = static_cast<int>(out.element_size());
  p.blocks_per_output = static_cast<int>(c.grid_y);
  p.red_per_block = static_cast<int>(c.red_per_block);
  p.flags = call.flags;
  p.factor = call.factor;
  p.p = call.p;
  p.out_calc = c.out_calc;
  p.red_calc = c.red_calc;
  if (call.index_out != nullptr) {
    b.use(*call.index_out);
    p.out_index = call.index_out->data_ptr();
  }
  if (call.aux != nullptr) {
    b.use(*call.aux);
    p.aux = call.aux->data_ptr();
    p.aux_dtype = static_cast<int>(call.aux->dtype());
  }
  if (c.grid_y > 1) {
    PF_ASSIGN(auto scratch,
              b.allocate_bytes(static_cast<size_t>(c.n_out * c.grid_y) * 32, "reduction partials"));
    PF_ASSIGN(auto sems,
              b.allocate_bytes(static_cast<size_t>(c.grid_x) * 4, "reduction semaphores"));
    PF_TRY(b.fill_now(*sems, 0));
    p.scratch = scratch->data();
    p.semaphores = sems->data();
  }
  cuda::LaunchConfig lc;
  lc.grid = {c.grid_x, c.grid_y, 1};
  lc.block = {c.bx, c.by, 1};
  lc.dynamic_smem_bytes = c.smem_bytes;
  return b.add_kernel(call.file, in.dtype(), "pf_reduce_" + call.kernel, lc, p);
}

// The reduced-dims mask of parameters (input, dim, keepdim): dim None or [] = all.
Result<Reduction> reduction_of(const GpuArgs& a, size_t dim_param, size_t keepdim_param) {
  PF_ASSIGN(auto dims, read_dims(a, dim_param));
  PF_ASSIGN(bool keepdim, a.boolean(keepdim_param));
  return plan_reduction(a, dim_param, a.tensor(0).shape(), dims, keepdim);
}

Result<std::vector<DeviceTensor>> reduce_into_new(PlanBuilder& b, const DeviceTensor& in,
                                                  const Reduction& r, const TensorType& out_type,
                                                  const ReduceCall& call) {
  PF_ASSIGN(DeviceTensor out, b.allocate(out_type));
  PF_TRY(launch_reduce(b, in, r.reduced, out, call));
  return std::vector<DeviceTensor>{out};
}

// sum / nansum / prod / amax / amin / all / any: (input, dim, keepdim, ...).
GpuOpFn simple_reduce(const std::string& kernel, int flags) {
  return [kernel, flags](const GpuArgs& a, const std::vector<TensorType>& out,
                         PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    PF_ASSIGN(Reduction r, reduction_of(a, 1, 2));
    ReduceCall call;
    call.kernel = kernel;
    call.flags = flags;
    return reduce_into_new(b, a.tensor(0), r, out[0], call);
  };
}

Result<std::vector<DeviceTensor>> run_mean(const GpuArgs& a, const std::vector<TensorType>& out,
                                           PlanBuilder& b) {
  PF_ASSIGN(Reduction r, reduction_of(a, 1, 2));
  DeviceTensor in = a.tensor(0);
  if (in.dtype() != out[0].dtype) {
    PF_ASSIGN(in, materialize(b, in, out[0].dtype));
  }
  ReduceCall call;
  call.kernel = "sum";
  call.factor = 1.0 / static_cast<double>(r.group_size);
  return reduce_into_new(b, in, r, out[0], call);
}

// max(x) / min(x): every dim.
GpuOpFn whole_extremum(bool take_min) {
  return [take_min](const GpuArgs& a, const std::vector<TensorType>& out,
                    PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    const DeviceTensor& x = a.tensor(0);
    Reduction r;
    r.reduced.assign(x.shape().size(), true);
    r.group_size = x.numel();
    ReduceCall call;
    call.kernel = "amax";
    call.flags = take_min ? 2 : 0;
    return reduce_into_new(b, x, r, out[0], call);
  };
}

GpuOpFn dim_extremum(bool take_min) {
  return [take_min](const GpuArgs& a, const std::vector<TensorType>& out,
                    PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    PF_ASSIGN(bool keepdim, a.boolean(2));
    PF_ASSIGN(Reduction r, plan_dim(a, 1, a.tensor(0).shape(), keepdim));
    PF_ASSIGN(DeviceTensor values, b.allocate(out[0]));
    PF_ASSIGN(DeviceTensor indices, b.allocate(out[1]));
    ReduceCall call;
    call.kernel = "arg";
    call.flags = (take_min ? 2 : 0) | 4;
    call.index_out = &indices;
    PF_TRY(launch_reduce(b, a.tensor(0), r.reduced, values, call));
    return std::vector<DeviceTensor>{values, indices};
  };
}

GpuOpFn arg_extremum(bool take_min) {
  return [take_min](const GpuArgs& a, const std::vector<TensorType>& out,
                    PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    PF_ASSIGN(bool keepdim, a.boolean(2));
    const Shape& shape = a.tensor(0).shape();
    PF_ASSIGN(Reduction r, a.is_none(1) ? plan_reduction(a, 1, shape, std::nullopt, keepdim)
                                        : plan_dim(a, 1, shape, keepdim));
    ReduceCall call;
    call.kernel = "arg";
    call.flags = take_min ? 2 : 0;
    return reduce_into_new(b, a.tensor(0), r, out[0], call);
  };
}

// with_mean: var_mean / std_mean; the mean is a second reduction (PyTorch
// takes it from the same Welford pass: one read of the input fewer).
GpuOpFn variance(bool take_sqrt, bool with_mean = false) {
  return [take_sqrt, with_mean](const GpuArgs& a, const std::vector<TensorType>& out,
                                PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    PF_ASSIGN(Reduction r, reduction_of(a, 1, 3));
    PF_ASSIGN(bool unbiased, a.boolean(2));
    int64_t correction = unbiased ? 1 : 0;
    if (!a.is_none(4)) {
      PF_ASSIGN(correction, a.integer(4));
    }
    ReduceCall call;
    call.file = "reduce_float.cu";
    call.kernel = "welford";
    call.flags = take_sqrt ? 1 : 0;
    call.factor = static_cast<double>(correction);
    PF_ASSIGN(std::vector<DeviceTensor> spread, reduce_into_new(b, a.tensor(0), r, out[0], call));
    if (!with_mean) return spread;
    ReduceCall mean;
    mean.kernel = "sum";
    mean.factor = 1.0 / static_cast<double>(r.group_size);
    PF_ASSIGN(std::vector<DeviceTensor> means, reduce_into_new(b, a.tensor(0), r, out[1], mean));
    spread.push_back(means[0]);
    return spread;
  };
}

// The order parameter of norm / vector_norm as the norm kernel's mode.
Result<ReduceCall> norm_call(const GpuArgs& a, size_t order_param) {
  ReduceCall call;
  call.file = "reduce_float.cu";
  call.kernel = "norm";
  const Arg& o = a.arg(order_param);
  double p = 2;
  if (o.kind != Arg::Kind::string) {
    PF_ASSIGN(p, a.real(order_param));
  }
  call.p = p;
  call.flags = p == 2 ? 0 : p == 1 ? 1 : std::isinf(p) ? (p > 0 ? 2 : 3) : p == 0 ? 4 : 5;
  return call;
}

Result<std::vector<DeviceTensor>> run_norm(const GpuArgs& a, const std::vector<TensorType>& out,
                                           PlanBuilder& b) {
  PF_ASSIGN(Reduction r, reduction_of(a, 2, 3));
  PF_ASSIGN(ReduceCall call, norm_call(a, 1));
  // A dtype argument casts the input before the norm (PyTorch), so float64
  // accumulates in float64 rather than in the input's opmath type.
  PF_ASSIGN(DeviceTensor x, as_dtype(b, a.tensor(0), out[0].dtype));
  return reduce_into_new(b, x, r, out[0], call);
}

// F.normalize: x / clamp_min(norm(x, p, dim, keepdim=True), eps).
Result<std::vector<DeviceTensor>> run_normalize(const GpuArgs& a,
                                                const std::vector<TensorType>& out,
                                                PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(Reduction r, plan_dim(a, 2, x.shape(), true));
  PF_ASSIGN(ReduceCall call, norm_call(a, 1));
  PF_ASSIGN(double eps, a.real(3));
  PF_ASSIGN(auto norm, reduce_into_new(b, x, r, TensorType{x.dtype(), r.out_shape}, call));
  EwLaunch clamp{
      "ew_arith.cu", "hardtanh", x.dtype(), x.dtype(), {EwOperand::of(norm[0])}, 0, {}, {},
      r.out_shape};
  clamp.s[0] = eps;
  clamp.si[2] = 1;
  PF_ASSIGN(DeviceTensor denom, launch_elementwise(b, clamp));
  EwLaunch div{"ew_arith.cu",
               "div",
               x.dtype(),
               x.dtype(),
               {EwOperand::of(x), EwOperand::of(denom)},
               0,
               {},
               {},
               out[0].shape};
  PF_ASSIGN(DeviceTensor y, launch_elementwise(b, div));
  return std::vector<DeviceTensor>{y};
}

// logsumexp: an amax pass (kept dims, opmath dtype) then sum(exp(x - max)).
Result<std::vector<DeviceTensor>> run_logsumexp(const GpuArgs& a,
                                                const std::vector<TensorType>& out,
                                                PlanBuilder& b) {
  PF_ASSIGN(Reduction r, reduction_of(a, 1, 2));
  DeviceTensor x = a.tensor(0);
  if (x.dtype() != out[0].dtype) {
    PF_ASSIGN(x, materialize(b, x, out[0].dtype));
  }
  DType acc = out[0].dtype == DType::float64 ? DType::float64 : DType::float32;
  PF_ASSIGN(DeviceTensor maxes, b.allocate(TensorType{acc, r.out_shape}, "logsumexp max"));
  ReduceCall amax;
  amax.kernel = "amax";
  PF_TRY(launch_reduce(b, x, r.reduced, maxes, amax));
  ReduceCall lse;
  lse.file = "reduce_float.cu";
  lse.kernel = "logsumexp";
  lse.aux = &maxes;
  return reduce_into_new(b, x, r, out[0], lse);
}

// 'nuc', 2 and -2 (kernels/singular.cu): the matrix dims moved last (the
// other dims keep their order, which is the output's), a contiguous copy,
// one thread per matrix.
Result<DeviceTensor> singular_norm(PlanBuilder& b, const DeviceTensor& x,
                                   const std::vector<int64_t>& dims, int mode,
                                   const TensorType& out) {
  const int64_t lo = std::min(dims[0], dims[1]), hi = std::max(dims[0], dims[1]);
  Shape shape;
  Strides strides;
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (d == lo || d == hi) continue;
    shape.push_back(x.shape()[d]);
    strides.push_back(x.strides()[d]);
  }
  for (int64_t d : {lo, hi}) {
    shape.push_back(x.shape()[d]);
    strides.push_back(x.strides()[d]);
  }
  PF_ASSIGN(DeviceTensor m, contiguous(b, DeviceTensor::view_of(x, shape, strides, x.offset())));
  b.use(m);
  PF_ASSIGN(DeviceTensor y, b.allocate(out));
  PfSingularNormParams p{};
  p.batch = y.numel();
  p.rows = static_cast<int>(x.shape()[lo]);
  p.cols = static_cast<int>(x.shape()[hi]);
  p.mode = mode;
  p.out_double = out.dtype == DType::float64 ? 1 : 0;
  if (p.batch == 0) return y;
  const int64_t size = int64_t{p.rows} * p.cols;
  if (size > 0) {
    PF_ASSIGN(DeviceTensor scratch,
              b.allocate(TensorType{DType::float64, {p.batch * size}}, "singular values scratch"));
    p.scratch = scratch.data_ptr();
    p.in = m.data_ptr();
  }
  p.out = y.data_ptr();
  PF_TRY(b.add_kernel("singular.cu", x.dtype(), "pf_singular_norm",
                      linear_launch(p.batch, 128, 128), p));
  return y;
}

// linalg.matrix_norm as PyTorch composes it: 'fro' is vector_norm(A, 2)
// over both dims; ord +-1 is vector_norm(A, 1) over dim[0], then amax/amin
// over dim[1]; +-inf the same with the dims swapped. 'nuc' and +-2 take the
// singular values. (The op's checks ran at type inference: float16/bfloat16
// never reach the singular values.)
Result<std::vector<DeviceTensor>> run_matrix_norm(const GpuArgs& a,
                                                  const std::vector<TensorType>& out,
                                                  PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  const int64_t rank = x.dim();
  std::vector<int64_t> dims = {0, 1};
  if (!a.is_none(2)) {
    PF_ASSIGN(dims, a.ints(2));
  }
  for (int64_t& d : dims) d = d < 0 ? d + rank : d;
  PF_ASSIGN(bool keepdim, a.boolean(3));
  const Arg& order = a.arg(1);
  if (order.kind == Arg::Kind::string && order.s == "nuc") {
    PF_ASSIGN(DeviceTensor y, singular_norm(b, x, dims, PF_SINGULAR_NUCLEAR, out[0]));
    return std::vector<DeviceTensor>{y};
  }
  if (order.kind != Arg::Kind::string) {
    PF_ASSIGN(double ord, a.real(1));
    if (std::fabs(ord) == 2) {
      PF_ASSIGN(
          DeviceTensor y,
          singular_norm(b, x, dims, ord > 0 ? PF_SINGULAR_LARGEST : PF_SINGULAR_SMALLEST, out[0]));
      return std::vector<DeviceTensor>{y};
    }
  }
  std::vector<std::pair<std::string, CallArg>> dtype;
  if (!a.is_none(4)) dtype.emplace_back("dtype", a.arg(4));
  const Arg keep = Arg::make_bool(keepdim);
  if (a.arg(1).kind == Arg::Kind::string) {
    PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "vector_norm",
                                           {x, Arg::make_real(2.0), int_list(dims), keep}, dtype));
    return std::vector<DeviceTensor>{y};
  }
  PF_ASSIGN(double ord, a.real(1));
  if (std::isinf(ord)) std::swap(dims[0], dims[1]);
  if (!keepdim && dims[0] < dims[1]) --dims[1];
  PF_ASSIGN(
      DeviceTensor sums,
      call_gpu_op1(b, "vector_norm", {x, Arg::make_real(1.0), int_list({dims[0]}), keep}, dtype));
  PF_ASSIGN(DeviceTensor y,
            call_gpu_op1(b, ord > 0 ? "amax" : "amin", {sums, int_list({dims[1]}), keep}));
  return std::vector<DeviceTensor>{y};
}

// count_nonzero as PyTorch's CUDA op: (input != 0).sum(dim).
Result<std::vector<DeviceTensor>> run_count_nonzero(const GpuArgs& a,
                                                    const std::vector<TensorType>&,
                                                    PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor nonzero, call_gpu_op1(b, "ne", {a.tensor(0), Arg::make_int(0)}));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "sum", {nonzero, a.arg(1), a.arg(2)},
                                         {{"dtype", Arg::make_dtype(DType::int64)}}));
  return std::vector<DeviceTensor>{y};
}

// nanmean as PyTorch: nansum(input, dim, keepdim, dtype) / (!isnan(input)).sum(dim, keepdim).
Result<std::vector<DeviceTensor>> run_nanmean(const GpuArgs& a, const std::vector<TensorType>&,
                                              PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(DeviceTensor sums,
            call_gpu_op1(b, "nansum", {x, a.arg(1), a.arg(2)}, {{"dtype", a.arg(3)}}));
  PF_ASSIGN(DeviceTensor nan, call_gpu_op1(b, "isnan", {x}));
  PF_ASSIGN(DeviceTensor present, call_gpu_op1(b, "logical_not", {nan}));
  PF_ASSIGN(DeviceTensor count, call_gpu_op1(b, "sum", {present, a.arg(1), a.arg(2)}));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "div", {sums, count}));
  return std::vector<DeviceTensor>{y};
}

// aminmax: amin and amax (two reductions where PyTorch fuses them in one).
Result<std::vector<DeviceTensor>> run_aminmax(const GpuArgs& a, const std::vector<TensorType>&,
                                              PlanBuilder& b) {
  const Arg dims = a.is_none(1) ? Arg::make_list({}) : Arg::make_list({a.arg(1)});
  PF_ASSIGN(DeviceTensor lo, call_gpu_op1(b, "amin", {a.tensor(0), dims, a.arg(2)}));
  PF_ASSIGN(DeviceTensor hi, call_gpu_op1(b, "amax", {a.tensor(0), dims, a.arg(2)}));
  return std::vector<DeviceTensor>{lo, hi};
}

// F.cosine_similarity as PyTorch 1.13 runs it: both operands expanded to one
// shape, each divided by its 2-norm over dim (clamped to eps), the products
// summed over dim. Half-precision operands are computed in float32 and the
// result rounded once, as the CPU reference does (rounding every
// intermediate to fp16 misses t = -5).
Result<std::vector<DeviceTensor>> run_cosine_similarity(const GpuArgs& a,
                                                        const std::vector<TensorType>& out,
                                                        PlanBuilder& b) {
  PF_ASSIGN(Shape shape, broadcast_shapes(a.tensor(0).shape(), a.tensor(1).shape()));
  PF_ASSIGN(int64_t dim, a.integer(2));
  const Arg dims = int_list({dim});
  const DType result = out[0].dtype;
  const DType compute = composite_compute_dtype(result);
  std::vector<DeviceTensor> unit;
  for (size_t i : {0, 1}) {
    PF_ASSIGN(DeviceTensor x, as_dtype(b, a.tensor(i), compute));
    x = DeviceTensor::view_of(x, shape, broadcast_strides(x.shape(), x.strides(), shape),
                              x.offset());
    PF_ASSIGN(DeviceTensor n,
              call_gpu_op1(b, "vector_norm", {x, Arg::make_real(2.0), dims, Arg::make_bool(true)}));
    PF_ASSIGN(DeviceTensor clamped, call_gpu_op1(b, "clamp", {n}, {{"min", a.arg(3)}}));
    PF_ASSIGN(DeviceTensor u, call_gpu_op1(b, "div", {x, clamped}));
    unit.push_back(u);
  }
  PF_ASSIGN(DeviceTensor prod, call_gpu_op1(b, "mul", {unit[0], unit[1]}));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "sum", {prod, dims}));
  PF_ASSIGN(y, as_dtype(b, y, result));
  return std::vector<DeviceTensor>{y};
}

// F.pairwise_distance as PyTorch: vector_norm(x1 - x2 + eps, p, -1, keepdim).
Result<std::vector<DeviceTensor>> run_pairwise_distance(const GpuArgs& a,
                                                        const std::vector<TensorType>&,
                                                        PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor d, call_gpu_op1(b, "sub", {a.tensor(0), a.tensor(1)}));
  PF_ASSIGN(DeviceTensor shifted, call_gpu_op1(b, "add", {d, a.arg(3)}));
  PF_ASSIGN(DeviceTensor y,
            call_gpu_op1(b, "vector_norm", {shifted, a.arg(2), int_list({-1}), a.arg(4)}));
  return std::vector<DeviceTensor>{y};
}

// torch.cdist as PyTorch dispatches it: for p = 2 with more than 25 rows on
// either side (or compute_mode='use_mm_for_euclid_dist') the matrix-product
// form [-2 x1, |x1|^2, 1] @ [x2, 1, |x2|^2]^T, clamped at 0 and square-rooted;
// otherwise the differences of every row pair (one broadcast sub) and their
// p-norm, where PyTorch runs one fused kernel.
Result<std::vector<DeviceTensor>> run_cdist(const GpuArgs& a, const std::vector<TensorType>&,
                                            PlanBuilder& b) {
  const DeviceTensor& x1 = a.tensor(0);
  const DeviceTensor& x2 = a.tensor(1);
  PF_ASSIGN(double p, a.real(2));
  PF_ASSIGN(std::string mode, a.string(3));
  const int64_t rows1 = x1.shape()[x1.dim() - 2], rows2 = x2.shape()[x2.dim() - 2];
  const bool mm =
      p == 2 && (mode == "use_mm_for_euclid_dist" ||
                 (mode == "use_mm_for_euclid_dist_if_necessary" && (rows1 > 25 || rows2 > 25)));
  if (!mm) {
    PF_ASSIGN(DeviceTensor u1, call_gpu_op1(b, "unsqueeze", {x1, Arg::make_int(-2)}));
    PF_ASSIGN(DeviceTensor u2, call_gpu_op1(b, "unsqueeze", {x2, Arg::make_int(-3)}));
    PF_ASSIGN(DeviceTensor d, call_gpu_op1(b, "sub", {u1, u2}));
    PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "vector_norm", {d, a.arg(2), int_list({-1})}));
    return std::vector<DeviceTensor>{y};
  }
  // [-2 x1, |x1|^2, 1] and [x2, 1, |x2|^2], written into one buffer each (PyTorch cats them).
  std::vector<DeviceTensor> padded;
  for (const DeviceTensor* x : {&x1, &x2}) {
    const bool left = x == &x1;
    const Shape& s = x->shape();
    const int64_t m = s.back();
    PF_ASSIGN(DeviceTensor sq, call_gpu_op1(b, "mul", {*x, *x}));
    PF_ASSIGN(DeviceTensor norm,
              call_gpu_op1(b, "sum", {sq, int_list({-1}), Arg::make_bool(true)}));
    PF_ASSIGN(DeviceTensor ones, call_gpu_op1(b, "ones_like", {norm}));
    DeviceTensor lead = *x;
    if (left) {
      PF_ASSIGN(lead, call_gpu_op1(b, "mul", {*x, Arg::make_real(-2.0)}));
    }
    Shape ps = s;
    ps.back() = m + 2;
    PF_ASSIGN(DeviceTensor buf, b.allocate(TensorType{x->dtype(), ps}));
    const Strides st = contiguous_strides(ps);
    Shape one = s;
    one.back() = 1;
    PF_TRY(copy_into(b, lead, DeviceTensor::view_of(buf, s, st, buf.offset())));
    PF_TRY(copy_into(b, left ? norm : ones, DeviceTensor::view_of(buf, one, st, buf.offset() + m)));
    PF_TRY(copy_into(b, left ? ones : norm,
                     DeviceTensor::view_of(buf, one, st, buf.offset() + m + 1)));
    padded.push_back(buf);
  }
  PF_ASSIGN(DeviceTensor rhs,
            call_gpu_op1(b, "transpose", {padded[1], Arg::make_int(-2), Arg::make_int(-1)}));
  PF_ASSIGN(DeviceTensor prod, call_gpu_op1(b, "matmul", {padded[0], rhs}));
  PF_ASSIGN(DeviceTensor clamped, call_gpu_op1(b, "clamp", {prod}, {{"min", Arg::make_real(0.0)}}));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "sqrt", {clamped}));
  return std::vector<DeviceTensor>{y};
}

// torch.dist as PyTorch: vector_norm(input - other, p) over every element.
Result<std::vector<DeviceTensor>> run_dist(const GpuArgs& a, const std::vector<TensorType>&,
                                           PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor d, call_gpu_op1(b, "sub", {a.tensor(0), a.tensor(1)}));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "vector_norm", {d, a.arg(2)}));
  return std::vector<DeviceTensor>{y};
}

}  // namespace

void register_gpu_reduction_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"dist", run_dist, float_dtypes()});
  r.add(GpuOpInfo{"cdist", run_cdist, float_dtypes()});
  r.add(GpuOpInfo{"cosine_similarity", run_cosine_similarity, float_dtypes()});
  r.add(GpuOpInfo{"pairwise_distance", run_pairwise_distance, all_dtypes()});
  r.add(GpuOpInfo{"count_nonzero", run_count_nonzero, all_dtypes()});
  r.add(GpuOpInfo{"nanmean", run_nanmean, float_dtypes()});
  r.add(GpuOpInfo{"aminmax", run_aminmax, all_dtypes()});
  r.add(GpuOpInfo{"sum", simple_reduce("sum", 0), all_dtypes()});
  r.add(GpuOpInfo{"nansum", simple_reduce("sum", 1), all_dtypes()});
  r.add(GpuOpInfo{"prod", simple_reduce("prod", 0), all_dtypes()});
  r.add(GpuOpInfo{"amax", simple_reduce("amax", 0), all_dtypes()});
  r.add(GpuOpInfo{"amin", simple_reduce("amax", 2), all_dtypes()});
  r.add(GpuOpInfo{"any", simple_reduce("truth", 0), all_dtypes()});
  r.add(GpuOpInfo{"all", simple_reduce("truth", 8), all_dtypes()});
  r.add(GpuOpInfo{"mean", run_mean, all_dtypes()});
  r.add(GpuOpInfo{"max", whole_extremum(false), all_dtypes()});
  r.add(GpuOpInfo{"min", whole_extremum(true), all_dtypes()});
  r.add(GpuOpInfo{"max_dim", dim_extremum(false), all_dtypes()});
  r.add(GpuOpInfo{"min_dim", dim_extremum(true), all_dtypes()});
  r.add(GpuOpInfo{"argmax", arg_extremum(false), all_dtypes()});
  r.add(GpuOpInfo{"argmin", arg_extremum(true), all_dtypes()});
  r.add(GpuOpInfo{"var", variance(false), float_dtypes()});
  r.add(GpuOpInfo{"std", variance(true), float_dtypes()});
  r.add(GpuOpInfo{"var_mean", variance(false, true), float_dtypes()});
  r.add(GpuOpInfo{"std_mean", variance(true, true), float_dtypes()});
  r.add(GpuOpInfo{"norm", run_norm, float_dtypes()});
  r.add(GpuOpInfo{"vector_norm", run_norm, float_dtypes()});
  r.add(GpuOpInfo{"matrix_norm", run_matrix_norm, float_dtypes()});
  r.add(GpuOpInfo{"normalize", run_normalize, float_dtypes()});
  r.add(GpuOpInfo{"logsumexp", run_logsumexp, all_dtypes()});
}

}  // namespace pf::gpu
