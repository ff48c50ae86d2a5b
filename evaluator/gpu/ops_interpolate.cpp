// interpolate (kernels/interpolate.cu) over a contiguous [N, C, *spatial]
// input, one kernel as PyTorch's NCHW upsample kernels: nearest and
// nearest-exact (1-3 spatial dims, one thread per output element), linear /
// bilinear / trilinear (one thread per output position looping over the
// N * C planes), bicubic (likewise), area = adaptive average pooling (a mean
// for a one-cell output). Source scales are computed here as PyTorch does
// (float for the nearest modes; opmath for the others, from scale_factor
// unless recompute_scale_factor or size).
#include <algorithm>
#include <cmath>
#include <optional>

#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/gpu/ops_pool.h"

namespace pf::gpu {
namespace {

enum Param : size_t { kInput, kSize, kScale, kMode, kAlign, kRecompute };

// The user's scale factors (nullopt: derive from the sizes).
Result<std::vector<std::optional<double>>> user_scales(const GpuArgs& a, size_t nd) {
  std::vector<std::optional<double>> out(nd);
  if (a.is_none(kScale)) return out;
  if (!a.is_none(kRecompute)) {
    PF_ASSIGN(bool recompute, a.boolean(kRecompute));
    if (recompute) return out;
  }
  const Arg& arg = a.arg(kScale);
  for (size_t d = 0; d < nd; ++d) {
    if (arg.is_sequence()) {
      const Arg& item = arg.items[d];
      out[d] = item.kind == Arg::Kind::real ? item.f : static_cast<double>(item.i);
    } else {
      PF_ASSIGN(double s, a.real(kScale));
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

Result<std::vector<DeviceTensor>> run_interpolate(const GpuArgs& a,
                                                  const std::vector<TensorType>& out,
                                                  PlanBuilder& b) {
  PF_ASSIGN(std::string mode, a.string(kMode));
  const DeviceTensor& input = a.tensor(kInput);
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
  if (!a.is_none(kAlign)) {
    PF_ASSIGN(align, a.boolean(kAlign));
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

Status no_antialias(const ArgReader& a) {
  auto antialias = a.boolean(6);
  if (antialias.ok() && *antialias) {
    return make_error(ErrorCode::unsupported,
                      "interpolate with antialias=True has no GPU baseline");
  }
  return ok_status();
}

}  // namespace

void register_gpu_interpolate_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"interpolate", run_interpolate, float_dtypes(), no_antialias});
}

}  // namespace pf::gpu
