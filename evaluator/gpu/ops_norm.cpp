// Normalisation (kernels/norm.cu): layer_norm and rms_norm in one
// row-per-block kernel; batch_norm at inference as one per-channel
// transform; group_norm, instance_norm and training-mode batch_norm as a
// moments kernel plus the transform. Inputs are made contiguous first (as
// PyTorch's kernels require); weight, bias and statistics may have any
// floating dtype (read with conversion).
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"

namespace pf::gpu {
namespace {

const char* kNorm = "norm.cu";

// An optional per-channel / per-column parameter, made contiguous.
Result<DeviceTensor> optional_param(const GpuArgs& a, size_t i, PlanBuilder& b) {
  if (!a.is_tensor(i)) return DeviceTensor();
  PF_ASSIGN(DeviceTensor t, contiguous(b, a.tensor(i)));
  b.use(t);
  return t;
}

void set_affine(PfNormParams& p, const DeviceTensor& w, const DeviceTensor& bias) {
  if (w.defined()) {
    p.weight = w.data_ptr();
    p.weight_dtype = static_cast<int>(w.dtype());
  }
  if (bias.defined()) {
    p.bias = bias.data_ptr();
    p.bias_dtype = static_cast<int>(bias.dtype());
  }
}

// layer_norm (weight 2, bias 3, eps 4) and rms_norm (weight 2, eps 3, default finfo.eps).
GpuOpFn row_norm(bool rms) {
  return [rms](const GpuArgs& a, const std::vector<TensorType>& out,
               PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    PF_ASSIGN(DeviceTensor x, contiguous(b, a.tensor(0)));
    b.use(x);
    PF_ASSIGN(std::vector<int64_t> ns, a.ints(1));
    const int64_t cols = shape_numel(ns);
    PF_ASSIGN(DeviceTensor w, optional_param(a, 2, b));
    DeviceTensor bias;
    double eps = 1e-5;
    if (rms) {
      switch (x.dtype()) {
        case DType::float16:
          eps = 0.0009765625;
          break;
        case DType::bfloat16:
          eps = 0.0078125;
          break;
        case DType::float64:
          eps = 2.220446049250313e-16;
          break;
        default:
          eps = 1.1920928955078125e-07;
          break;
      }
      if (!a.is_none(3)) {
        PF_ASSIGN(eps, a.real(3));
      }
    } else {
      PF_ASSIGN(bias, optional_param(a, 3, b));
      PF_ASSIGN(eps, a.real(4));
    }
    PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
    PfNormParams p{};
    p.in = x.data_ptr();
    p.out = y.data_ptr();
    p.cols = cols;
    p.rows = cols == 0 ? 0 : x.numel() / cols;
    p.rms = rms ? 1 : 0;
    p.eps = eps;
    set_affine(p, w, bias);
    const int64_t vec = vector_width(x.dtype());
    p.vectorize = (cols % vec == 0 && x.data_ptr() % 16 == 0 && y.data_ptr() % 16 == 0) ? 1 : 0;
    if (p.rows == 0 || cols == 0) return std::vector<DeviceTensor>{y};
    cuda::LaunchConfig lc;
    lc.grid = {p.rows, 1, 1};
    lc.block = {128, 1, 1};
    PF_TRY(b.add_kernel(kNorm, x.dtype(), "pf_layer_norm", lc, p));
    return std::vector<DeviceTensor>{y};
  };
}

struct StatLayout {
  int64_t groups = 0;  // stat groups
  int64_t chunks = 1;
  int64_t chunk_len = 0;
  int64_t chunk_stride = 0;
};

// Moments into fresh opmath-dtype mean / rstd tensors of `layout.groups` elements.
Result<std::pair<DeviceTensor, DeviceTensor>> add_moments(PlanBuilder& b, const DeviceTensor& x,
                                                          const StatLayout& layout, double eps) {
  DType acc = x.dtype() == DType::float64 ? DType::float64 : DType::float32;
  PF_ASSIGN(DeviceTensor mean, b.allocate(TensorType{acc, {layout.groups}}, "norm mean"));
  PF_ASSIGN(DeviceTensor rstd, b.allocate(TensorType{acc, {layout.groups}}, "norm rstd"));
  PfNormParams p{};
  p.in = x.data_ptr();
  p.mean = mean.data_ptr();
  p.rstd = rstd.data_ptr();
  p.mean_dtype = p.rstd_dtype = static_cast<int>(acc);
  p.chunks = layout.chunks;
  p.chunk_len = layout.chunk_len;
  p.chunk_stride = layout.chunk_stride;
  p.eps = eps;
  if (layout.groups > 0) {
    int64_t per_group = layout.chunks * layout.chunk_len;
    int64_t threads = 32;
    while (threads < 512 && threads < per_group) threads *= 2;
    cuda::LaunchConfig lc;
    lc.grid = {layout.groups, 1, 1};
    lc.block = {threads, 1, 1};
    PF_TRY(b.add_kernel(kNorm, x.dtype(), "pf_norm_moments", lc, p));
  }
  return std::make_pair(mean, rstd);
}

struct Transform {
  const DeviceTensor* mean = nullptr;
  const DeviceTensor* rstd = nullptr;  // or the running variance
  bool running = false;
  bool per_sample = false;
  int64_t groups = 1;
  double eps = 0;
};

Result<DeviceTensor> add_transform(PlanBuilder& b, const DeviceTensor& x, const DeviceTensor& w,
                                   const DeviceTensor& bias, const Transform& t) {
  PF_ASSIGN(DeviceTensor y, b.allocate(x.type()));
  const Shape& s = x.shape();
  const int64_t n = s[0], c = s[1];
  const int64_t inner = n * c == 0 ? 0 : x.numel() / (n * c);
  if (x.numel() == 0) return y;
  if (x.numel() >= (int64_t{1} << 31)) {
    return make_error(ErrorCode::unsupported,
                      "normalisation of 2^31 or more elements is not supported");
  }
  b.use(*t.mean);
  b.use(*t.rstd);
  PfNormParams p{};
  p.in = x.data_ptr();
  p.out = y.data_ptr();
  p.mean = t.mean->data_ptr();
  p.rstd = t.rstd->data_ptr();
  p.mean_dtype = static_cast<int>(t.mean->dtype());
  p.rstd_dtype = static_cast<int>(t.rstd->dtype());
  p.numel = x.numel();
  p.channels = c;
  p.groups = t.groups;
  p.inner_div = make_divider(static_cast<uint32_t>(inner));
  p.channels_div = make_divider(static_cast<uint32_t>(c));
  p.per_sample = t.per_sample ? 1 : 0;
  p.running = t.running ? 1 : 0;
  p.eps = t.eps;
  set_affine(p, w, bias);
  const int64_t vec = vector_width(x.dtype());
  if (inner % vec == 0 && x.data_ptr() % 16 == 0 && y.data_ptr() % 16 == 0) {
    PF_TRY(b.add_kernel(kNorm, x.dtype(), "pf_norm_transform_vec",
                        linear_launch(p.numel, PF_EW_THREADS * vec, PF_EW_THREADS), p));
  } else if (inner >= 32 && n * c < (int64_t{1} << 31)) {
    // Planes of at least a warp: one block per plane, threads sized to it.
    int64_t threads = 32;
    while (threads < 256 && threads < inner) threads *= 2;
    cuda::LaunchConfig lc;
    lc.grid = {n * c, 1, 1};
    lc.block = {threads, 1, 1};
    PF_TRY(b.add_kernel(kNorm, x.dtype(), "pf_norm_transform_plane", lc, p));
  } else {
    PF_TRY(b.add_kernel(kNorm, x.dtype(), "pf_norm_transform",
                        linear_launch(p.numel, PF_EW_THREADS * PF_EW_STRIDED_WORK, PF_EW_THREADS),
                        p));
  }
  return y;
}

int64_t inner_of(const DeviceTensor& x) {
  const int64_t nc = x.shape()[0] * x.shape()[1];
  return nc == 0 ? 0 : x.numel() / nc;
}

// batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps).
Result<std::vector<DeviceTensor>> run_batch_norm(const GpuArgs& a, const std::vector<TensorType>&,
                                                 PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor x, contiguous(b, a.tensor(0)));
  b.use(x);
  PF_ASSIGN(bool training, a.boolean(5));
  PF_ASSIGN(double eps, a.real(7));
  PF_ASSIGN(DeviceTensor w, optional_param(a, 3, b));
  PF_ASSIGN(DeviceTensor bias, optional_param(a, 4, b));
  if (!training) {
    PF_ASSIGN(DeviceTensor rm, optional_param(a, 1, b));
    PF_ASSIGN(DeviceTensor rv, optional_param(a, 2, b));
    Transform t{&rm, &rv, true, false, x.shape()[1], eps};
    PF_ASSIGN(DeviceTensor y, add_transform(b, x, w, bias, t));
    return std::vector<DeviceTensor>{y};
  }
  const int64_t n = x.shape()[0], c = x.shape()[1], inner = inner_of(x);
  PF_ASSIGN(auto stats, add_moments(b, x, StatLayout{c, n, inner, c * inner}, eps));
  Transform t{&stats.first, &stats.second, false, false, c, eps};
  PF_ASSIGN(DeviceTensor y, add_transform(b, x, w, bias, t));
  return std::vector<DeviceTensor>{y};
}

// instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps).
Result<std::vector<DeviceTensor>> run_instance_norm(const GpuArgs& a,
                                                    const std::vector<TensorType>&,
                                                    PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor x, contiguous(b, a.tensor(0)));
  b.use(x);
  PF_ASSIGN(bool use_input_stats, a.boolean(5));
  PF_ASSIGN(double eps, a.real(7));
  PF_ASSIGN(DeviceTensor w, optional_param(a, 3, b));
  PF_ASSIGN(DeviceTensor bias, optional_param(a, 4, b));
  const int64_t n = x.shape()[0], c = x.shape()[1], inner = inner_of(x);
  if (!use_input_stats) {
    PF_ASSIGN(DeviceTensor rm, optional_param(a, 1, b));
    PF_ASSIGN(DeviceTensor rv, optional_param(a, 2, b));
    Transform t{&rm, &rv, true, false, c, eps};
    PF_ASSIGN(DeviceTensor y, add_transform(b, x, w, bias, t));
    return std::vector<DeviceTensor>{y};
  }
  PF_ASSIGN(auto stats, add_moments(b, x, StatLayout{n * c, 1, inner, 0}, eps));
  Transform t{&stats.first, &stats.second, false, true, c, eps};
  PF_ASSIGN(DeviceTensor y, add_transform(b, x, w, bias, t));
  return std::vector<DeviceTensor>{y};
}

// group_norm(input, num_groups, weight, bias, eps).
Result<std::vector<DeviceTensor>> run_group_norm(const GpuArgs& a, const std::vector<TensorType>&,
                                                 PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor x, contiguous(b, a.tensor(0)));
  b.use(x);
  PF_ASSIGN(int64_t g, a.integer(1));
  PF_ASSIGN(double eps, a.real(4));
  PF_ASSIGN(DeviceTensor w, optional_param(a, 2, b));
  PF_ASSIGN(DeviceTensor bias, optional_param(a, 3, b));
  const int64_t n = x.shape()[0], c = x.shape()[1], inner = inner_of(x);
  PF_ASSIGN(auto stats, add_moments(b, x, StatLayout{n * g, 1, (c / g) * inner, 0}, eps));
  Transform t{&stats.first, &stats.second, false, true, g, eps};
  PF_ASSIGN(DeviceTensor y, add_transform(b, x, w, bias, t));
  return std::vector<DeviceTensor>{y};
}

}  // namespace

void register_gpu_norm_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"layer_norm", row_norm(false), float_dtypes()});
  r.add(GpuOpInfo{"rms_norm", row_norm(true), float_dtypes()});
  r.add(GpuOpInfo{"batch_norm", run_batch_norm, float_dtypes()});
  r.add(GpuOpInfo{"instance_norm", run_instance_norm, float_dtypes()});
  r.add(GpuOpInfo{"group_norm", run_group_norm, float_dtypes()});
}

}  // namespace pf::gpu
