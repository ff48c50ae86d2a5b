// Pooling (kernels/pool.cu), as PyTorch's CUDA path runs it on a contiguous
// NCHW input: max_pool1d/2d through max_pool2d_with_indices (the int64
// argmax is written to scratch, as PyTorch writes it, so the memory traffic
// matches), avg_pool1d/2d through avg_pool2d (1-d pooling is 2-d with a
// height of 1), max_pool3d / avg_pool3d through their 3-d kernels (argmax
// scratch likewise), adaptive_avg_pool as a mean over the spatial dims when the
// output is one cell (PyTorch's shortcut) and the adaptive kernel otherwise,
// adaptive_max_pool with its argmax scratch. max_pool<n>d_with_indices and
// adaptive_max_pool<n>d_with_indices (return_indices=True) return that
// argmax as their second output.
#include "evaluator/gpu/ops_pool.h"

#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/layout_util.h"

namespace pf::gpu {
namespace {

using Outputs = Result<std::vector<DeviceTensor>>;

constexpr const char* kPool = "pool.cu";

// Sizes of the last `nd` dims of `s` as the (d, h, w) slots.
void spatial3(const Shape& s, int nd, int (&dst)[3]) {
  for (int k = 0; k < 3; ++k) {
    const int from_end = 3 - k;
    dst[k] = from_end <= nd ? static_cast<int>(s[s.size() - static_cast<size_t>(from_end)]) : 1;
  }
}

// (d, h, w) slots of an nd-element parameter list (1-d: w only).
void slots3(const std::vector<int64_t>& v, int nd, int fill, int (&dst)[3]) {
  for (int k = 0; k < 3; ++k) {
    const int from_end = 3 - k;
    dst[k] = from_end <= nd ? static_cast<int>(v[v.size() - static_cast<size_t>(from_end)]) : fill;
  }
}

// Fills the plane count, sizes and output dividers from x (contiguous) and y.
Status set_geometry(PfPoolParams& p, const DeviceTensor& x, const DeviceTensor& y, int nd) {
  spatial3(x.shape(), nd, p.in_size);
  spatial3(y.shape(), nd, p.out_size);
  int64_t planes = 1;
  for (int64_t d = 0; d < x.dim() - nd; ++d) planes *= x.shape()[d];
  p.planes = planes;
  p.n = y.numel();
  if (x.numel() >= (int64_t{1} << 31) || y.numel() >= (int64_t{1} << 31)) {
    return make_error(ErrorCode::unsupported,
                      "pooling tensors of 2^31 or more elements is not supported");
  }
  for (int k = 0; k < 3; ++k)
    p.out_div[k] = make_divider(static_cast<uint32_t>(std::max(p.out_size[k], 1)));
  p.in = x.data_ptr();
  p.out = y.data_ptr();
  return ok_status();
}

// with_indices: max_pool<n>d_with_indices, whose argmax is the second output
// instead of scratch.
GpuOpFn windowed_fn(int nd, bool is_max, bool with_indices = false) {
  return [nd, is_max, with_indices](const GpuArgs& a, const std::vector<TensorType>& out,
                                    PlanBuilder& b) -> Outputs {
    const size_t n = static_cast<size_t>(nd);
    PF_ASSIGN(DeviceTensor x, contiguous(b, a.tensor(0)));
    b.use(x);
    PF_ASSIGN(std::vector<int64_t> k, layout::ints_n(a, 1, n));
    PF_ASSIGN(std::vector<int64_t> stride, layout::ints_n_or(a, 2, n, k));
    PF_ASSIGN(std::vector<int64_t> pad, layout::ints_n(a, 3, n));
    std::vector<int64_t> dil(n, 1);
    PfPoolParams p{};
    if (is_max) {
      PF_ASSIGN(dil, layout::ints_n(a, 4, n));
    } else {
      PF_ASSIGN(bool include, a.boolean(5));
      p.count_include_pad = include ? 1 : 0;
      if (a.size() > 6 && !a.is_none(6)) {
        PF_ASSIGN(int64_t div, a.integer(6));
        p.divisor = static_cast<int>(div);
      }
    }
    slots3(k, nd, 1, p.k);
    slots3(stride, nd, 1, p.stride);
    slots3(pad, nd, 0, p.pad);
    slots3(dil, nd, 1, p.dil);
    PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
    std::vector<DeviceTensor> outs = {y};
    if (with_indices) {
      PF_ASSIGN(DeviceTensor idx, b.allocate(out[1]));
      outs.push_back(idx);
    }
    PF_TRY(set_geometry(p, x, y, nd));
    if (p.n == 0) return outs;
    cuda::LaunchConfig lc;
    if (is_max) {
      DeviceTensor idx;
      if (with_indices) {
        idx = outs[1];
      } else {
        PF_ASSIGN(idx, b.allocate(TensorType{DType::int64, y.shape()}, "max_pool indices"));
      }
      p.indices = idx.data_ptr();
      lc = linear_launch(p.n, 256, 256);
    } else {
      lc = linear_launch(p.n, 1024, 1024);
    }
    const char* kernel = nd == 3 ? (is_max ? "pf_max_pool3d" : "pf_avg_pool3d")
                                 : (is_max ? "pf_max_pool2d" : "pf_avg_pool2d");
    if (nd == 3) lc = linear_launch(p.n, 256, 256);
    PF_TRY(b.add_kernel(kPool, x.dtype(), kernel, lc, p));
    return outs;
  };
}

}  // namespace

Result<DeviceTensor> add_adaptive_pool(PlanBuilder& b, const DeviceTensor& input,
                                       const TensorType& out, int nd, bool is_max,
                                       const DeviceTensor* indices) {
  const Shape& os = out.shape;
  bool single = true;
  for (int k = 1; k <= nd; ++k) single = single && os[os.size() - static_cast<size_t>(k)] == 1;
  if (single && !is_max) {
    std::vector<int64_t> dims;
    for (int k = 1; k <= nd; ++k) dims.push_back(-k);
    return call_gpu_op1(b, "mean", {input, int_list(dims)}, {{"keepdim", Arg::make_bool(true)}});
  }
  PF_ASSIGN(DeviceTensor x, contiguous(b, input));
  b.use(x);
  PF_ASSIGN(DeviceTensor y, b.allocate(out));
  PfPoolParams p{};
  PF_TRY(set_geometry(p, x, y, nd));
  if (p.n == 0) return y;
  if (is_max) {
    DeviceTensor idx;
    if (indices != nullptr) {
      idx = *indices;
    } else {
      PF_ASSIGN(idx, b.allocate(TensorType{DType::int64, y.shape()}, "adaptive_max_pool indices"));
    }
    p.indices = idx.data_ptr();
  }
  // PyTorch: grid (planes, max(16 / channels, 1)), threads (32, 8).
  const int64_t channels = x.dim() > nd ? x.shape()[x.dim() - nd - 1] : 1;
  cuda::LaunchConfig lc;
  lc.grid = {p.planes, std::max<int64_t>(16 / std::max<int64_t>(channels, 1), 1), 1};
  lc.block = {32, 8, 1};
  PF_TRY(b.add_kernel(kPool, x.dtype(), is_max ? "pf_adaptive_max_pool" : "pf_adaptive_avg_pool",
                      lc, p));
  return y;
}

namespace {

GpuOpFn adaptive_fn(int nd, bool is_max, bool with_indices = false) {
  return [nd, is_max, with_indices](const GpuArgs& a, const std::vector<TensorType>& out,
                                    PlanBuilder& b) -> Outputs {
    if (!with_indices) {
      PF_ASSIGN(DeviceTensor y, add_adaptive_pool(b, a.tensor(0), out[0], nd, is_max));
      return std::vector<DeviceTensor>{y};
    }
    PF_ASSIGN(DeviceTensor idx, b.allocate(out[1]));
    PF_ASSIGN(DeviceTensor y, add_adaptive_pool(b, a.tensor(0), out[0], nd, true, &idx));
    return std::vector<DeviceTensor>{y, idx};
  };
}

}  // namespace

namespace {

// The dtypes of a pool returning its argmax: the floating values and the
// int64 indices (the registry checks outputs too).
std::set<DType> with_int64_indices() {
  std::set<DType> d = float_dtypes();
  d.insert(DType::int64);
  return d;
}

}  // namespace

void register_gpu_pool_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"max_pool1d", windowed_fn(1, true), float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"max_pool2d", windowed_fn(2, true), float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"max_pool3d", windowed_fn(3, true), float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"max_pool1d_with_indices", windowed_fn(1, true, true), with_int64_indices(),
                  int_args_fit_32_bits});
  r.add(GpuOpInfo{"max_pool2d_with_indices", windowed_fn(2, true, true), with_int64_indices(),
                  int_args_fit_32_bits});
  r.add(GpuOpInfo{"max_pool3d_with_indices", windowed_fn(3, true, true), with_int64_indices(),
                  int_args_fit_32_bits});
  r.add(GpuOpInfo{"avg_pool1d", windowed_fn(1, false), float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"avg_pool2d", windowed_fn(2, false), float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"avg_pool3d", windowed_fn(3, false), float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"adaptive_avg_pool1d", adaptive_fn(1, false), float_dtypes(),
                  int_args_fit_32_bits});
  r.add(GpuOpInfo{"adaptive_avg_pool2d", adaptive_fn(2, false), float_dtypes(),
                  int_args_fit_32_bits});
  r.add(GpuOpInfo{"adaptive_avg_pool3d", adaptive_fn(3, false), float_dtypes(),
                  int_args_fit_32_bits});
  r.add(
      GpuOpInfo{"adaptive_max_pool1d", adaptive_fn(1, true), float_dtypes(), int_args_fit_32_bits});
  r.add(
      GpuOpInfo{"adaptive_max_pool2d", adaptive_fn(2, true), float_dtypes(), int_args_fit_32_bits});
  r.add(
      GpuOpInfo{"adaptive_max_pool3d", adaptive_fn(3, true), float_dtypes(), int_args_fit_32_bits});
  for (int nd = 1; nd <= 3; ++nd) {
    r.add(GpuOpInfo{"adaptive_max_pool" + std::to_string(nd) + "d_with_indices",
                    adaptive_fn(nd, true, true), with_int64_indices(), int_args_fit_32_bits});
  }
}

}  // namespace pf::gpu
