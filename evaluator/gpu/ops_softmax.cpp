// softmax / log_softmax (kernels/softmax.cu) with PyTorch's dispatch: the
// input is made contiguous first; a contiguous softmax dim of at most 1024
// elements (4 KiB) goes to the warp-per-row kernel, longer rows to the
// block-per-row kernel (row cached in shared memory when it fits), a strided
// dim to the spatial kernel. dtype= widening (half -> float) is fused into
// the store; any other dtype change converts the input first, as the
// reference does.
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/reduce_util.h"

namespace pf::gpu {
namespace {

// PyTorch's legacy implicit dim (dim=None), as the CPU op.
Result<int64_t> softmax_dim(const GpuArgs& a, size_t rank) {
  if (a.is_none(1)) return rank == 0 || rank == 1 || rank == 3 ? 0 : 1;
  PF_ASSIGN(int64_t d, a.integer(1));
  return normalize_dim(d, static_cast<int64_t>(rank == 0 ? 1 : rank), "softmax");
}

bool fused_widening(DType in, DType out) {
  if (in == out) return true;
  bool in16 = in == DType::float16 || in == DType::bfloat16;
  return (in16 && (out == DType::float32 || out == DType::float64)) ||
         (in == DType::float32 && out == DType::float64);
}

int log2_ceil(int64_t v) {
  int l = 0;
  while ((int64_t{1} << l) < v) ++l;
  return l;
}

GpuOpFn softmax_fn(bool log) {
  return [log](const GpuArgs& a, const std::vector<TensorType>& out,
               PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    DeviceTensor x = a.tensor(0);
    const DType out_dtype = out[0].dtype;
    if (!fused_widening(x.dtype(), out_dtype)) {
      PF_ASSIGN(x, materialize(b, x, out_dtype));
    } else {
      PF_ASSIGN(x, contiguous(b, x));
    }
    PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
    b.use(x);
    const Shape& s = x.shape();
    PF_ASSIGN(int64_t dim, softmax_dim(a, s.size()));
    PfSoftmaxParams p{};
    p.in = x.data_ptr();
    p.out = y.data_ptr();
    p.outer = 1;
    p.inner = 1;
    p.dim_size = s.empty() ? 1 : s[dim];
    for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d) {
      if (d < dim) p.outer *= s[d];
      if (d > dim) p.inner *= s[d];
    }
    p.out_dtype = static_cast<int>(out_dtype);
    p.log = log ? 1 : 0;
    if (x.numel() == 0) return std::vector<DeviceTensor>{y};
    const size_t es = x.element_size();
    cuda::LaunchConfig lc;
    if (p.inner > 1) {
      lc = linear_launch(p.outer * p.inner, 128, 128);
      PF_TRY(b.add_kernel("softmax.cu", x.dtype(), "pf_softmax_spatial", lc, p));
    } else if (p.dim_size <= 1024 && p.dim_size * static_cast<int64_t>(es) <= 4096) {
      const int l = log2_ceil(p.dim_size);
      const int64_t next = int64_t{1} << l;
      const int64_t warp = std::min<int64_t>(next, 32);
      const int64_t batch = next <= 128 ? 2 : 1;
      const int64_t rows_per_block = (128 / warp) * batch;
      lc.grid = {(p.outer + rows_per_block - 1) / rows_per_block, 1, 1};
      lc.block = {warp, 128 / warp, 1};
      PF_TRY(b.add_kernel("softmax.cu", x.dtype(), "pf_softmax_warp_" + std::to_string(l), lc, p));
    } else {
      // PyTorch's SoftMaxForward_getBlockSize: enough threads for dim / ILP, 32..1024.
      const int64_t ilp = static_cast<int64_t>(16 / es);
      int64_t block = 1;
      while (block < std::min<int64_t>(p.dim_size / ilp, 1024)) block *= 2;
      block = std::max<int64_t>(block, 32);
      const int64_t smem = p.dim_size * static_cast<int64_t>(es);
      p.cached = smem <= b.properties().limits.max_smem_per_block - 1024 ? 1 : 0;
      lc.grid = {p.outer, 1, 1};
      lc.block = {block, 1, 1};
      lc.dynamic_smem_bytes = p.cached ? smem : 0;
      PF_TRY(b.add_kernel("softmax.cu", x.dtype(), "pf_softmax_block", lc, p));
    }
    return std::vector<DeviceTensor>{y};
  };
}

// F.softmin as PyTorch runs it: (-input).softmax(dim, dtype).
Result<std::vector<DeviceTensor>> run_softmin(const GpuArgs& a, const std::vector<TensorType>&,
                                              PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor negated, call_gpu_op1(b, "neg", {a.tensor(0)}));
  PF_ASSIGN(DeviceTensor y,
            call_gpu_op1(b, "softmax", {negated}, {{"dim", a.arg(1)}, {"dtype", a.arg(3)}}));
  return std::vector<DeviceTensor>{y};
}

}  // namespace

void register_gpu_softmax_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"softmax", softmax_fn(false), all_dtypes()});
  r.add(GpuOpInfo{"log_softmax", softmax_fn(true), all_dtypes()});
  r.add(GpuOpInfo{"softmin", run_softmin, all_dtypes()});
}

}  // namespace pf::gpu
