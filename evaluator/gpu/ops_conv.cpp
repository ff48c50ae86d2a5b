// conv1d / conv2d / conv3d and their transposes, as PyTorch's _convolution
// dispatches them on a CUDA device:
// - 1-d runs as 2-d with a height of 1 (view1d_as_2d), 3-d through cuDNN's
//   N-d descriptors over 5-d tensors, unbatched inputs get
//   a batch of one, the input is made contiguous;
// - padding='same' with an odd total pads the input on the right first
//   (one constant pad kernel, as _convolution_mode), then pads symmetrically;
// - depthwise convolutions (groups == C_in > 1, C_out a multiple of C_in)
//   run PyTorch's own depthwise kernel (ours: pf_conv_direct, one thread per
//   output, bias fused, unrolled for square 3/5/7 kernels; 1-d/2-d ones 3, 5
//   or 7 wide at width stride and dilation 1 or 2: pf_conv_dw_*,
//   several outputs of a row per thread sharing their loads: conv_direct.h), except 1-d/2-d fp16
//   with >= 32 channels, no dilation and a square stride, which PyTorch sends to cuDNN (its
//   workload table refines this; we take the whole class); 3-d depthwise always runs the direct
//   kernel, as PyTorch's conv_depthwise3d;
// - everything else: cuDNN (conv_cudnn.h), then the bias as one in-place
//   broadcast add, as PyTorch's output.add_(bias);
// - without cuDNN (absent, disabled in GpuRuntimeOptions, or refusing the
//   problem as unsupported / unavailable): the direct kernels
//   (kernels/conv.cu), bias fused. Correct, much slower than cuDNN: fidelity
//   numbers need cuDNN (the plan's steps say which ran).
#include "evaluator/gpu/conv_cudnn.h"
#include "evaluator/gpu/conv_direct.h"
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/elementwise.h"
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

// Argument positions shared by the conv ops.
constexpr size_t kInput = 0, kWeight = 1, kBias = 2, kStride = 3, kPadding = 4;

// t with a size-1 dim inserted at `dim` (a view).
DeviceTensor unsqueezed(const DeviceTensor& t, size_t dim) {
  Shape s = t.shape();
  Strides st = t.strides();
  const int64_t stride = dim < s.size() ? s[dim] * st[dim] : 1;
  s.insert(s.begin() + static_cast<std::ptrdiff_t>(dim), 1);
  st.insert(st.begin() + static_cast<std::ptrdiff_t>(dim), stride);
  return DeviceTensor::view_of(t, s, st, t.offset());
}

// A contiguous tensor viewed as 4-d (or 5-d for 3-d convs): 1-d convs get
// height 1 at dim 2.
DeviceTensor as_nd(const DeviceTensor& t) {
  return t.dim() == 3 ? unsqueezed(t, 2) : t;
}

bool is_depthwise(const DeviceTensor& x4, const DeviceTensor& w4, int groups) {
  const int64_t c_in = x4.shape()[1];
  return groups > 1 && c_in == groups && w4.shape()[0] % c_in == 0;
}

// PyTorch's use_cudnn_depthwise for cuDNN >= 8.2, without its workload
// table: 4-d inputs only.
bool depthwise_to_cudnn(const DeviceTensor& x4, const ConvGeometry& g, bool one_d) {
  return x4.dim() == 4 && x4.dtype() == DType::float16 && x4.shape()[1] >= 32 && g.dil[1] == 1 &&
         g.dil[2] == 1 && (g.stride[1] == g.stride[2] || one_d);
}

Status add_direct_conv(PlanBuilder& b, const ConvGeometry& g, const DeviceTensor& x4,
                       const DeviceTensor& w4, const DeviceTensor* bias, const DeviceTensor& y4) {
  const int64_t n = y4.numel();
  if (n >= (int64_t{1} << 31) || x4.numel() >= (int64_t{1} << 31)) {
    return make_error(ErrorCode::unsupported,
                      "direct convolutions of 2^31 or more elements are not supported");
  }
  PfConvParams p{};
  p.in = x4.data_ptr();
  p.weight = w4.data_ptr();
  p.bias = bias != nullptr ? bias->data_ptr() : 0;
  p.out = y4.data_ptr();
  p.n_out = n;
  p.batch = static_cast<int>(x4.shape()[0]);
  p.c_in = static_cast<int>(x4.shape()[1]);
  p.c_out = static_cast<int>(y4.shape()[1]);
  p.groups = g.groups;
  const size_t first = 3 - (x4.shape().size() - 2);  // the slot of dim 2
  for (size_t d = 0; d < 3; ++d) {
    const bool written = d >= first;
    const size_t dim = 2 + d - first;
    p.in_size[d] = written ? static_cast<int>(x4.shape()[dim]) : 1;
    p.out_size[d] = written ? static_cast<int>(y4.shape()[dim]) : 1;
    p.k[d] = written ? static_cast<int>(w4.shape()[dim]) : 1;
    p.stride[d] = g.stride[d];
    p.pad[d] = g.pad[d];
    p.dil[d] = g.dil[d];
  }
  p.ow_div = make_divider(static_cast<uint32_t>(std::max(p.out_size[2], 1)));
  p.oh_div = make_divider(static_cast<uint32_t>(std::max(p.out_size[1], 1)));
  p.od_div = make_divider(static_cast<uint32_t>(std::max(p.out_size[0], 1)));
  p.c_div = make_divider(static_cast<uint32_t>(std::max(p.c_out, 1)));
  b.use(x4);
  b.use(w4);
  b.use(y4);
  if (bias != nullptr) b.use(*bias);
  if (n == 0) return ok_status();
  const bool one_channel_groups = !g.transposed && x4.dim() == 4 && p.c_in == p.groups;
  const std::string rows =
      one_channel_groups ? depthwise_row_kernel(p.k[2], p.stride[2], p.dil[2]) : "";
  if (!rows.empty()) {
    const int64_t blocks = (p.out_size[2] + PF_CONV_DW_COLS - 1) / PF_CONV_DW_COLS;
    p.ow_div = make_divider(static_cast<uint32_t>(blocks));
    const int64_t threads = n / p.out_size[2] * blocks;
    return b.add_kernel("conv.cu", x4.dtype(), rows,
                        linear_launch(threads, PF_CONV_DW_THREADS, PF_CONV_DW_THREADS), p);
  }
  return b.add_kernel("conv.cu", x4.dtype(), direct_conv_kernel(p.k[1], p.k[2], g.transposed),
                      linear_launch(n, 256, 256), p);
}

// y += bias broadcast over the channel dim (dim 1 of a batched output).
Status add_bias(PlanBuilder& b, const DeviceTensor& y, const DeviceTensor& bias,
                size_t channel_dim) {
  Shape s(y.shape().size() - channel_dim, 1);
  Strides st(s.size(), 0);
  s[0] = bias.numel();
  st[0] = bias.dim() == 0 ? 0 : bias.strides()[0];
  const DeviceTensor bv = DeviceTensor::view_of(bias, s, st, bias.offset());
  EwLaunch l;
  l.file = "ew_arith.cu";
  l.kernel = "add";
  l.compute = y.dtype();
  l.out = y.dtype();
  l.inputs = {EwOperand::of(y), EwOperand::of(bv)};
  l.s[0] = 1;
  l.si[0] = 1;
  l.shape = y.shape();
  return launch_elementwise_into(b, l, y);
}

GpuOpFn conv_fn(int nd, bool transposed) {
  return [nd, transposed](const GpuArgs& a, const std::vector<TensorType>& out,
                          PlanBuilder& b) -> Outputs {
    const size_t n = static_cast<size_t>(nd);
    const size_t i_dil = transposed ? 7 : 5, i_groups = 6;
    DeviceTensor x = a.tensor(kInput);
    const DeviceTensor* bias = a.optional_tensor(kBias);
    PF_ASSIGN(std::vector<int64_t> stride, layout::ints_n(a, kStride, n));
    PF_ASSIGN(std::vector<int64_t> dil, layout::ints_n(a, i_dil, n));
    PF_ASSIGN(int64_t groups, a.integer(i_groups));
    const DeviceTensor& w = a.tensor(kWeight);
    std::vector<int64_t> pad(n, 0), extra(n, 0);  // extra: right-side input padding
    if (a.arg(kPadding).kind == Arg::Kind::string) {
      if (a.arg(kPadding).s == "same") {
        for (size_t d = 0; d < n; ++d) {
          const int64_t total = dil[d] * (w.shape()[2 + d] - 1);
          pad[d] = total / 2;
          extra[d] = total - 2 * pad[d];
        }
      }
    } else {
      PF_ASSIGN(pad, layout::ints_n(a, kPadding, n));
    }
    const bool batched = x.dim() == nd + 2;
    if (!batched) x = unsqueezed(x, 0);
    bool asymmetric = false;
    for (int64_t e : extra) asymmetric = asymmetric || e != 0;
    if (asymmetric) {
      std::vector<int64_t> pads;  // F.pad order: last dim first
      for (size_t d = n; d-- > 0;) pads.insert(pads.end(), {0, extra[d]});
      PF_ASSIGN(x, call_gpu_op1(b, "pad", {x, int_list(pads)}));
    }
    PF_ASSIGN(DeviceTensor xc, contiguous(b, x));
    PF_ASSIGN(DeviceTensor wc, contiguous(b, w));
    PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
    const DeviceTensor yb = batched ? y : unsqueezed(y, 0);
    const DeviceTensor x4 = as_nd(xc), w4 = as_nd(wc), y4 = as_nd(yb);
    ConvGeometry g;
    g.groups = static_cast<int>(groups);
    g.transposed = transposed;
    for (size_t d = 0; d < n; ++d) {
      const size_t slot = 3 - n + d;
      g.pad[slot] = static_cast<int>(pad[d]);
      g.stride[slot] = static_cast<int>(stride[d]);
      g.dil[slot] = static_cast<int>(dil[d]);
    }
    if (y.numel() == 0) return std::vector<DeviceTensor>{y};
    const bool depthwise = !transposed && is_depthwise(x4, w4, g.groups);
    if (!depthwise || depthwise_to_cudnn(x4, g, nd == 1)) {
      // cuDNN absent or refusing the problem (no algorithm, a sub-library
      // that does not load): the direct kernels; other errors are ours.
      auto cudnn = b.runtime().cudnn();
      if (cudnn.ok()) {
        Status st = add_cudnn_conv(b, **cudnn, g, x4, w4, y4);
        if (st.ok()) {
          if (bias != nullptr) PF_TRY(add_bias(b, y, *bias, batched ? 1 : 0));
          return std::vector<DeviceTensor>{y};
        }
        if (st.error().code != ErrorCode::unsupported &&
            st.error().code != ErrorCode::unavailable) {
          return st.error();
        }
      }
    }
    if (bias != nullptr) {
      PF_ASSIGN(DeviceTensor bc, contiguous(b, *bias));
      PF_TRY(add_direct_conv(b, g, x4, w4, &bc, y4));
    } else {
      PF_TRY(add_direct_conv(b, g, x4, w4, nullptr, y4));
    }
    return std::vector<DeviceTensor>{y};
  };
}

}  // namespace

void register_gpu_conv_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"conv1d", conv_fn(1, false), float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"conv2d", conv_fn(2, false), float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"conv3d", conv_fn(3, false), float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"conv_transpose1d", conv_fn(1, true), float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"conv_transpose2d", conv_fn(2, true), float_dtypes(), int_args_fit_32_bits});
  r.add(GpuOpInfo{"conv_transpose3d", conv_fn(3, true), float_dtypes(), int_args_fit_32_bits});
}

}  // namespace pf::gpu
