// interpolate (kernels/interpolate.cu) over a contiguous [N, C, *spatial]
// input, one kernel as PyTorch's NCHW upsample kernels: nearest and
// nearest-exact (1-3 spatial dims, one thread per output element), linear /
// bilinear / trilinear (one thread per output position looping over the
// N * C planes), bicubic (likewise), area = adaptive average pooling (a mean
// for a one-cell output). Source scales are computed here as PyTorch does
// (float for the nearest modes; opmath for the others, from scale_factor
// unless recompute_scale_factor or size). antialias=True (bilinear and
// bicubic over 2 dims): one kernel over tap tables computed here by the CPU
// reference's own function (interpolate_taps.h) and uploaded with the plan.
#include <algorithm>
#include <cmath>
#include <optional>

#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/gpu/ops_pool.h"
#include "evaluator/ops/affine_grid.h"
#include "evaluator/ops/interpolate_taps.h"

namespace pf::gpu {
namespace {

enum Param : size_t { p_input, p_size, p_scale, p_mode, p_align, p_recompute, p_antialias };

// The user's scale factors (nullopt: derive from the sizes).
Result<std::vector<std::optional<double>>> user_scales(const GpuArgs& a, size_t nd) {
  std::vector<std::optional<double>> out(nd);
  if (a.is_none(p_scale)) return out;
  if (!a.is_none(p_recompute)) {
    PF_ASSIGN(bool recompute, a.boolean(p_recompute));
    if (recompute) return out;
  }
  const Arg& arg = a.arg(p_scale);
  for (size_t d = 0; d < nd; ++d) {
    if (arg.is_sequence()) {
      const Arg& item = arg.items[d];
      out[d] = item.kind == Arg::Kind::real ? item.f : static_cast<double>(item.i);
    } else {
      PF_ASSIGN(double s, a.real(p_scale));
      out[d] = s;
    }
  }
  return out;
}

template <typename C>
double pixel_scale(int64_t in, int64_t out, bool align, std::optional<double> scale) {
  if (align)
    return out > 1 ? static_cast<double>(static_cast<C>(in - 1) / static_cast<C>(out - 1)) : 0.0;
  if (scale && *scale > 0) return static_cast<double>(static_cast<C>(1.0 / *scale));
  return static_cast<double>(static_cast<C>(in) / static_cast<C>(out));
}

// The taps of spatial dim d as two device tables: int32 (first input, count)
// per output, and opmath weights padded to the longest window.
Status upload_taps(PlanBuilder& b, const InterpTaps& taps, DType weight_type, size_t d,
                   PfInterpAaParams& p) {
  const int64_t outputs = static_cast<int64_t>(taps.size());
  size_t max_taps = 1;
  for (const auto& t : taps) max_taps = std::max(max_taps, t.size());
  std::vector<double> span(static_cast<size_t>(outputs) * 2, 0.0);
  std::vector<double> weights(static_cast<size_t>(outputs) * max_taps, 0.0);
  for (size_t o = 0; o < taps.size(); ++o) {
    if (!taps[o].empty()) span[2 * o] = static_cast<double>(taps[o][0].index);
    span[2 * o + 1] = static_cast<double>(taps[o].size());
    for (size_t j = 0; j < taps[o].size(); ++j) weights[o * max_taps + j] = taps[o][j].weight;
  }
  PF_ASSIGN(DeviceTensor spans,
            b.runtime().upload(Tensor::from_doubles(DType::int32, {outputs, 2}, span),
                               "interpolate antialias spans"));
  PF_ASSIGN(DeviceTensor w,
            b.runtime().upload(Tensor::from_doubles(
                                   weight_type, {outputs, static_cast<int64_t>(max_taps)}, weights),
                               "interpolate antialias weights"));
  b.use(spans);
  b.use(w);
  p.span[d] = spans.data_ptr();
  p.weights[d] = w.data_ptr();
  p.max_taps[d] = static_cast<int>(max_taps);
  return ok_status();
}

// interpolate(..., antialias=True) of a contiguous 4-d x into y.
Status add_antialias(PlanBuilder& b, const DeviceTensor& x, const DeviceTensor& y, bool bicubic,
                     bool align, const std::vector<std::optional<double>>& scales) {
  PfInterpAaParams p{};
  const bool dbl = x.dtype() == DType::float64;
  for (size_t d = 0; d < 2; ++d) {
    const int64_t in = x.shape()[2 + d], o = y.shape()[2 + d];
    p.in_size[d] = static_cast<int>(in);
    p.out_size[d] = static_cast<int>(o);
    PF_TRY(upload_taps(b, antialias_taps(bicubic, dbl, in, o, align, scales[d]),
                       dbl ? DType::float64 : DType::float32, d, p));
  }
  p.in = x.data_ptr();
  p.out = y.data_ptr();
  p.planes = x.shape()[0] * x.shape()[1];
  p.n = int64_t{p.out_size[0]} * p.out_size[1];
  p.ow_div = make_divider(static_cast<uint32_t>(p.out_size[1]));
  cuda::LaunchConfig lc = linear_launch(p.n, 256, 256);
  // As the other interpolating kernels: planes over grid.y when the output
  // positions alone leave the GPU idle.
  const int64_t sms = b.properties().sm_count > 0 ? b.properties().sm_count : 132;
  const int64_t want = sms * 2048 / (lc.grid[0] * 256);
  lc.grid[1] = std::clamp<int64_t>(want, 1, std::min<int64_t>(p.planes, 65535));
  return b.add_kernel("interpolate.cu", x.dtype(), "pf_upsample_aa", lc, p);
}

Result<std::vector<DeviceTensor>> run_interpolate(const GpuArgs& a,
                                                  const std::vector<TensorType>& out,
                                                  PlanBuilder& b) {
  PF_ASSIGN(std::string mode, a.string(p_mode));
  const DeviceTensor& input = a.tensor(p_input);
  const int nd = static_cast<int>(input.dim()) - 2;
  if (mode == "area") {
    PF_ASSIGN(DeviceTensor y, add_adaptive_pool(b, input, out[0], nd, false));
    return std::vector<DeviceTensor>{y};
  }
  PfInterpParams p{};
  if (mode == "nearest") {
    p.mode = PF_INTERP_NEAREST;
  } else if (mode == "nearest-exact") {
    p.mode = PF_INTERP_NEAREST_EXACT;
  } else if (mode == "bicubic") {
    p.mode = PF_INTERP_CUBIC;
  } else {
    p.mode = PF_INTERP_LINEAR;
  }
  bool align = false;
  if (!a.is_none(p_align)) {
    PF_ASSIGN(align, a.boolean(p_align));
  }
  p.align_corners = align ? 1 : 0;
  PF_ASSIGN(auto scales, user_scales(a, static_cast<size_t>(nd)));
  PF_ASSIGN(DeviceTensor x, contiguous(b, input));
  b.use(x);
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  const bool dbl = x.dtype() == DType::float64;
  const bool nearest = p.mode == PF_INTERP_NEAREST || p.mode == PF_INTERP_NEAREST_EXACT;
  for (int k = 0; k < 3; ++k) {
    const int d = k - (3 - nd);  // spatial dim index, < 0: a padding slot of size 1
    const int64_t in = d < 0 ? 1 : x.shape()[2 + d];
    const int64_t o = d < 0 ? 1 : y.shape()[2 + d];
    const std::optional<double> s = d < 0 ? std::nullopt : scales[d];
    p.in_size[k] = static_cast<int>(in);
    p.out_size[k] = static_cast<int>(o);
    p.scale[k] = nearest ? pixel_scale<float>(in, o, false, s)
                 : dbl   ? pixel_scale<double>(in, o, align, s)
                         : pixel_scale<float>(in, o, align, s);
    p.out_div[k] = make_divider(static_cast<uint32_t>(std::max<int64_t>(o, 1)));
  }
  p.in = x.data_ptr();
  p.out = y.data_ptr();
  p.planes = x.shape()[0] * x.shape()[1];
  if (y.numel() == 0) return std::vector<DeviceTensor>{y};
  if (y.numel() >= (int64_t{1} << 31) || x.numel() >= (int64_t{1} << 31)) {
    return make_error(ErrorCode::unsupported,
                      "interpolating tensors of 2^31 or more elements is not supported");
  }
  PF_ASSIGN(bool antialias, a.boolean(p_antialias));
  if (antialias) {
    PF_TRY(add_antialias(b, x, y, p.mode == PF_INTERP_CUBIC, align, scales));
    return std::vector<DeviceTensor>{y};
  }
  if (nearest) {
    p.n = y.numel();
    PF_TRY(b.add_kernel("interpolate.cu", x.dtype(), "pf_upsample_nearest",
                        linear_launch(p.n, 512, 512), p));
  } else {
    p.n = y.numel() / p.planes;
    const char* kernel = p.mode == PF_INTERP_CUBIC ? "pf_upsample_cubic" : "pf_upsample_linear";
    cuda::LaunchConfig lc = linear_launch(p.n, 1024, 1024);
    // Few output positions and many planes (a 64x48 map of 1024 channels):
    // split the planes over grid.y until about 2048 threads per SM are busy.
    const int64_t sms = b.properties().sm_count > 0 ? b.properties().sm_count : 132;
    const int64_t want = sms * 2048 / (lc.grid[0] * 1024);
    lc.grid[1] = std::clamp<int64_t>(want, 1, std::min<int64_t>(p.planes, 65535));
    PF_TRY(b.add_kernel("interpolate.cu", x.dtype(), kernel, lc, p));
  }
  return std::vector<DeviceTensor>{y};
}

}  // namespace

namespace {

// F.affine_grid: the base grid [H * W, 3] uploaded once, times theta^T in one
// batched GEMM ([H * W, 3] @ [N, 3, 2] -> [N, H * W, 2]).
Result<std::vector<DeviceTensor>> run_affine_grid(const GpuArgs& a,
                                                  const std::vector<TensorType>& out,
                                                  PlanBuilder& b) {
  const DeviceTensor& theta = a.tensor(0);
  const Shape& s = out[0].shape;
  const bool align = !a.is_none(2) && a.arg(2).b;
  PF_ASSIGN(
      DeviceTensor base,
      b.runtime().upload(affine_base_grid(theta.dtype(), s[1], s[2], align), "affine_grid base"));
  b.use(base);
  PF_ASSIGN(DeviceTensor tt,
            call_gpu_op1(b, "transpose", {theta, Arg::make_int(1), Arg::make_int(2)}));
  PF_ASSIGN(DeviceTensor g, call_gpu_op1(b, "matmul", {base, tt}));
  return std::vector<DeviceTensor>{DeviceTensor::view_of(g, s, contiguous_strides(s), g.offset())};
}

}  // namespace

void register_gpu_interpolate_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"affine_grid", run_affine_grid, float_dtypes()});
  r.add(GpuOpInfo{"interpolate", run_interpolate, float_dtypes()});
}

}  // namespace pf::gpu
