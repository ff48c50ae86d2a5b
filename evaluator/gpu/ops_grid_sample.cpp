// F.grid_sample, 2-d (kernels/grid_sample.cu): input and grid made
// contiguous, then one kernel, a thread per output position looping over the
// channels as PyTorch's grid_sampler_2d_kernel. The op checks
// (ops/grid_sample.cpp) already ran at type inference.
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_grid_abi.cuh"
#include "evaluator/gpu/op_support.h"

namespace pf::gpu {
namespace {

Result<std::vector<DeviceTensor>> run_grid_sample(const GpuArgs& a,
                                                  const std::vector<TensorType>& out,
                                                  PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor x, contiguous(b, a.tensor(0)));
  PF_ASSIGN(DeviceTensor grid, contiguous(b, a.tensor(1)));
  b.use(x);
  b.use(grid);
  PF_ASSIGN(std::string mode, a.string(2));
  PF_ASSIGN(std::string padding, a.string(3));
  const bool align = !a.is_none(4) && a.boolean(4).value();
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  if (y.numel() == 0) return std::vector<DeviceTensor>{y};
  if (y.numel() >= (int64_t{1} << 31) || x.numel() >= (int64_t{1} << 31)) {
    return make_error(ErrorCode::unsupported,
                      "grid_sample over tensors of 2^31 or more elements is not supported");
  }
  PfGridSampleParams p{};
  p.in = x.data_ptr();
  p.grid = grid.data_ptr();
  p.out = y.data_ptr();
  p.n = y.shape()[0] * y.shape()[2] * y.shape()[3];
  p.channels = static_cast<int>(x.shape()[1]);
  p.in_h = static_cast<int>(x.shape()[2]);
  p.in_w = static_cast<int>(x.shape()[3]);
  p.out_h = static_cast<int>(y.shape()[2]);
  p.out_w = static_cast<int>(y.shape()[3]);
  p.mode = mode == "nearest" ? PF_GRID_NEAREST : PF_GRID_BILINEAR;
  p.padding = padding == "border"       ? PF_GRID_PAD_BORDER
              : padding == "reflection" ? PF_GRID_PAD_REFLECTION
                                        : PF_GRID_PAD_ZEROS;
  p.align_corners = align ? 1 : 0;
  PF_TRY(b.add_kernel("grid_sample.cu", x.dtype(), "pf_grid_sample_2d",
                      linear_launch(p.n, 256, 256), p));
  return std::vector<DeviceTensor>{y};
}

}  // namespace

void register_gpu_grid_sample_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"grid_sample", run_grid_sample, float_dtypes()});
}

}  // namespace pf::gpu
