// cumsum / cumprod (kernels/scan.cu), as PyTorch's scan_dim: the input is
// converted to the output dtype (integers and bool accumulate in int64) and
// made contiguous first (one copy kernel when needed), then one scan kernel:
// a warp per row for the innermost dim, a thread per column otherwise.
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/layout_util.h"

namespace pf::gpu {
namespace {

constexpr int64_t kMaxGridDim = 65535;  // PyTorch caps both grid dims at maxGridSize[1]

GpuOpFn scan_fn(bool product) {
  return [product](const GpuArgs& a, const std::vector<TensorType>& out,
                   PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    const DeviceTensor& x = a.tensor(0);
    const DType t = out[0].dtype;
    PF_ASSIGN(int64_t dim, layout::dim_arg(a, 1, std::max<int64_t>(x.dim(), 1)));
    DeviceTensor xc;
    if (x.dtype() != t) {
      PF_ASSIGN(xc, materialize(b, x, t));
    } else {
      PF_ASSIGN(xc, contiguous(b, x));
    }
    PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
    b.use(xc);
    b.use(y);
    if (y.numel() == 0) return std::vector<DeviceTensor>{y};
    PfScanParams p{};
    p.in = xc.data_ptr();
    p.out = y.data_ptr();
    p.outer = 1;
    p.len = x.dim() == 0 ? 1 : x.shape()[dim];
    p.inner = 1;
    for (int64_t d = 0; d < x.dim(); ++d) {
      if (d < dim) p.outer *= x.shape()[d];
      if (d > dim) p.inner *= x.shape()[d];
    }
    p.product = product ? 1 : 0;
    cuda::LaunchConfig lc;
    if (p.inner == 1) {
      lc.grid = {(p.outer + PF_SCAN_WARPS - 1) / PF_SCAN_WARPS, 1, 1};
      lc.block = {PF_SCAN_WARPS * 32, 1, 1};
      PF_TRY(b.add_kernel("scan.cu", t, "pf_scan_inner", lc, p));
    } else {
      const int64_t threads = std::min<int64_t>(512, p.inner);
      lc.grid = {std::min<int64_t>(kMaxGridDim, p.outer),
                 std::min<int64_t>(kMaxGridDim, (p.inner + threads - 1) / threads), 1};
      lc.block = {threads, 1, 1};
      PF_TRY(b.add_kernel("scan.cu", t, "pf_scan_outer", lc, p));
    }
    return std::vector<DeviceTensor>{y};
  };
}

Status not_to_bool(const ArgReader& a) {
  if (!a.is_none(2)) {
    auto t = a.dtype(2);
    if (t.ok() && *t == DType::boolean) {
      return make_error(ErrorCode::unsupported, "a cumulative op into bool has no GPU baseline");
    }
  }
  return ok_status();
}

}  // namespace

void register_gpu_scan_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"cumsum", scan_fn(false), all_dtypes(), not_to_bool});
  r.add(GpuOpInfo{"cumprod", scan_fn(true), all_dtypes(), not_to_bool});
}

}  // namespace pf::gpu
