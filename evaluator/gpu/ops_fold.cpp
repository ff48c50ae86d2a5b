// F.unfold (im2col) and F.fold (col2im) on contiguous copies of their
// inputs (kernels/fold.cu), as PyTorch's im2col_out_cuda / col2im_out_cuda;
// unbatched inputs run as a batch of one. The op checks (ops/unfold.cpp)
// already ran at type inference: this file only reads the geometry.
#include "evaluator/gpu/copy.h"
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

constexpr int64_t kIndexLimit = int64_t{1} << 31;

// Kernel, dilation, padding, stride from parameters first..first+3 and the
// block grid over an image of `size`.
Status read_blocks(const GpuArgs& a, size_t first, int64_t h, int64_t w, PfFoldParams& p) {
  PF_ASSIGN(std::vector<int64_t> k, layout::ints_n(a, first, 2));
  PF_ASSIGN(std::vector<int64_t> dil, layout::ints_n(a, first + 1, 2));
  PF_ASSIGN(std::vector<int64_t> pad, layout::ints_n(a, first + 2, 2));
  PF_ASSIGN(std::vector<int64_t> stride, layout::ints_n(a, first + 3, 2));
  const int64_t size[2] = {h, w};
  for (size_t d = 0; d < 2; ++d) {
    p.size[d] = static_cast<int>(size[d]);
    p.k[d] = static_cast<int>(k[d]);
    p.dil[d] = static_cast<int>(dil[d]);
    p.pad[d] = static_cast<int>(pad[d]);
    p.stride[d] = static_cast<int>(stride[d]);
    p.blocks[d] =
        static_cast<int>((size[d] + 2 * pad[d] - dil[d] * (k[d] - 1) - 1) / stride[d] + 1);
  }
  return ok_status();
}

Status check_size(const DeviceTensor& t) {
  if (t.numel() >= kIndexLimit) {
    return make_error(ErrorCode::unsupported,
                      "unfold/fold of tensors with 2^31 or more elements is not supported");
  }
  return ok_status();
}

Outputs run_im2col(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor x, contiguous(b, a.tensor(0)));
  const Shape& xs = x.shape();
  PfFoldParams p{};
  PF_TRY(read_blocks(a, 1, xs[xs.size() - 2], xs[xs.size() - 1], p));
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  PF_TRY(check_size(x));
  PF_TRY(check_size(y));
  b.use(x);
  b.use(y);
  const int64_t planes = x.numel() / (int64_t{p.size[0]} * p.size[1]);
  p.n = planes * p.blocks[0] * p.blocks[1];
  if (p.n == 0 || y.numel() == 0) return std::vector<DeviceTensor>{y};
  p.col = y.data_ptr();
  p.im = x.data_ptr();
  p.w_div = make_divider(static_cast<uint32_t>(p.blocks[1]));
  p.h_div = make_divider(static_cast<uint32_t>(p.blocks[0]));
  PF_TRY(b.add_kernel("fold.cu", x.dtype(), "pf_im2col", linear_launch(p.n, 512, 512), p));
  return std::vector<DeviceTensor>{y};
}

Outputs run_col2im(const GpuArgs& a, const std::vector<TensorType>& out, PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor x, contiguous(b, a.tensor(0)));
  PF_ASSIGN(std::vector<int64_t> size, layout::ints_n(a, 1, 2));
  PfFoldParams p{};
  PF_TRY(read_blocks(a, 2, size[0], size[1], p));
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  PF_TRY(check_size(x));
  PF_TRY(check_size(y));
  b.use(x);
  b.use(y);
  p.n = y.numel();
  if (p.n == 0) return std::vector<DeviceTensor>{y};
  p.col = x.data_ptr();
  p.im = y.data_ptr();
  p.w_div = make_divider(static_cast<uint32_t>(p.size[1]));
  p.h_div = make_divider(static_cast<uint32_t>(p.size[0]));
  PF_TRY(b.add_kernel("fold.cu", x.dtype(), "pf_col2im", linear_launch(p.n, 512, 512), p));
  return std::vector<DeviceTensor>{y};
}

}  // namespace

void register_gpu_fold_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"im2col", run_im2col, float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"col2im", run_col2im, float_dtypes(), int_args_fit_32_bits});
}

}  // namespace pf::gpu
