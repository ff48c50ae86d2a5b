// Normalisation: batch_norm, instance_norm, group_norm, layer_norm, rms_norm.
// Statistics are computed in float64 with two passes (mean, then biased
// variance) and the output rounded once to the input's dtype. Affine
// parameters and running statistics may have any floating dtype. Training-mode
// batch_norm normalises with batch statistics; its running-stat update is a
// side effect on inputs that no output depends on, so it is not modelled.
#include <cmath>
#include <limits>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

// Checks an optional per-channel (or per-element) parameter's size.
template <typename T>
Status check_param(const BoundArgs<T>& a, size_t i, int64_t numel, const std::string& what) {
  if (!a.is_tensor(i)) return ok_status();
  const T& t = a.tensor(i);
  PF_TRY(require_floating(a, i, dtype_of(t)));
  if (shape_numel(shape_of(t)) != numel) {
    return a.error(i, "expected " + std::to_string(numel) + " elements (" + what + "), got shape " +
                          shape_str(shape_of(t)));
  }
  return ok_status();
}

std::vector<double> param_values(const BoundArgs<Tensor>& a, size_t i) {
  return a.is_tensor(i) ? read_doubles(a.tensor(i)) : std::vector<double>{};
}

struct Moments {
  double mean = 0, var = 0;
};

// Mean and biased variance of x[start + i * stride] for i in [0, n), over
// `blocks` blocks `block_stride` apart (n elements each).
Moments moments(const std::vector<double>& x, int64_t start, int64_t n, int64_t blocks,
                int64_t block_stride) {
  Moments m;
  int64_t count = n * blocks;
  if (count == 0) return Moments{std::numeric_limits<double>::quiet_NaN(),
                                 std::numeric_limits<double>::quiet_NaN()};
  double sum = 0;
  for (int64_t b = 0; b < blocks; ++b) {
    const double* p = x.data() + start + b * block_stride;
    for (int64_t i = 0; i < n; ++i) sum += p[i];
  }
  m.mean = sum / static_cast<double>(count);
  double sq = 0;
  for (int64_t b = 0; b < blocks; ++b) {
    const double* p = x.data() + start + b * block_stride;
    for (int64_t i = 0; i < n; ++i) sq += (p[i] - m.mean) * (p[i] - m.mean);
  }
  m.var = sq / static_cast<double>(count);
  return m;
}

template <typename T>
Result<int64_t> channels(const BoundArgs<T>& a) {
  const Shape& s = shape_of(a.tensor(0));
  PF_TRY(require_floating(a, 0, dtype_of(a.tensor(0))));
  if (s.size() < 2) {
    return a.error(0, "expects at least 2 dims [N, C, ...], got shape " + shape_str(s));
  }
  return s[1];
}

Result<std::vector<TensorType>> same_as_input(const BoundArgs<TensorType>& a) {
  return std::vector<TensorType>{a.tensor(0)};
}

// --- batch_norm / instance_norm ---------------------------------------------------

// x viewed as [N, C, inner]; per channel, y = (x - mean) / sqrt(var + eps) * w + b,
// with mean/var from `stats(n, c)`.
template <typename StatsFn>
Tensor channel_normalize(const Tensor& x, const std::vector<double>& w, const std::vector<double>& b,
                         double eps, StatsFn stats) {
  int64_t n = x.shape()[0], c = x.shape()[1];
  int64_t inner = n * c == 0 ? 0 : x.numel() / (n * c);
  std::vector<double> v = read_doubles(x);
  for (int64_t ni = 0; ni < n; ++ni) {
    for (int64_t ci = 0; ci < c; ++ci) {
      Moments m = stats(v, ni, ci, inner);
      double inv = 1.0 / std::sqrt(m.var + eps);
      double scale = w.empty() ? inv : inv * w[ci];
      double shift = b.empty() ? 0.0 : b[ci];
      double* p = v.data() + (ni * c + ci) * inner;
      for (int64_t i = 0; i < inner; ++i) p[i] = (p[i] - m.mean) * scale + shift;
    }
  }
  return Tensor::from_doubles(x.dtype(), x.shape(), v);
}

OpInfo batch_norm_op() {
  OpInfo op;
  op.name = "batch_norm";
  op.aliases = {"torch.nn.functional.batch_norm"};
  op.params = {param_tensor("input"),          param_opt_tensor("running_mean"),
               param_opt_tensor("running_var"), param_opt_tensor("weight"),
               param_opt_tensor("bias"),         param_bool("training", false),
               param_real("momentum", 0.1),      param_real("eps", 1e-5)};
  op.params[1].required_in_pytorch = op.params[2].required_in_pytorch = true;
  op.doc = "per-channel (dim 1) normalisation with running stats (batch stats if training)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(int64_t c, channels(a));
    PF_ASSIGN(bool training, a.boolean(5));
    if (!training && (!a.is_tensor(1) || !a.is_tensor(2))) {
      return a.error(1, "running_mean and running_var are required when training=False");
    }
    for (size_t i = 1; i <= 4; ++i) PF_TRY(check_param(a, i, c, "one per channel"));
    PF_TRY(a.real(6));
    PF_TRY(a.real(7));
    const Shape& s = a.tensor(0).shape;
    if (training && shape_numel(s) / std::max<int64_t>(c, 1) <= 1 && c > 0) {
      return a.error(0, "training needs more than 1 value per channel, got shape " + shape_str(s));
    }
    return same_as_input(a);
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(bool training, a.boolean(5));
    PF_ASSIGN(double eps, a.real(7));
    std::vector<double> rm = param_values(a, 1), rv = param_values(a, 2);
    int64_t n = x.shape()[0], c = x.shape()[1];
    // Batch statistics are taken from the whole input before normalising.
    std::vector<Moments> per_channel(static_cast<size_t>(c));
    if (training) {
      std::vector<double> v = read_doubles(x);
      int64_t inner = n * c == 0 ? 0 : x.numel() / (n * c);
      for (int64_t ci = 0; ci < c; ++ci) per_channel[ci] = moments(v, ci * inner, inner, n, c * inner);
    } else {
      for (int64_t ci = 0; ci < c; ++ci) per_channel[ci] = Moments{rm[ci], rv[ci]};
    }
    auto stats = [&](const std::vector<double>&, int64_t, int64_t ci, int64_t) {
      return per_channel[ci];
    };
    return std::vector<Tensor>{
        channel_normalize(x, param_values(a, 3), param_values(a, 4), eps, stats)};
  };
  return op;
}

OpInfo instance_norm_op() {
  OpInfo op;
  op.name = "instance_norm";
  op.aliases = {"torch.nn.functional.instance_norm"};
  op.params = {param_tensor("input"),          param_opt_tensor("running_mean"),
               param_opt_tensor("running_var"), param_opt_tensor("weight"),
               param_opt_tensor("bias"),         param_bool("use_input_stats", true),
               param_real("momentum", 0.1),      param_real("eps", 1e-5)};
  op.doc = "per-sample, per-channel normalisation over the spatial dims";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(int64_t c, channels(a));
    PF_ASSIGN(bool use_input, a.boolean(5));
    if (!use_input && (!a.is_tensor(1) || !a.is_tensor(2))) {
      return a.error(1, "running_mean and running_var are required when use_input_stats=False");
    }
    for (size_t i = 1; i <= 4; ++i) PF_TRY(check_param(a, i, c, "one per channel"));
    PF_TRY(a.real(7));
    return same_as_input(a);
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(bool use_input, a.boolean(5));
    PF_ASSIGN(double eps, a.real(7));
    std::vector<double> rm = param_values(a, 1), rv = param_values(a, 2);
    int64_t c = x.shape()[1];
    auto stats = [&](const std::vector<double>& v, int64_t ni, int64_t ci, int64_t inner) {
      if (!use_input) return Moments{rm[ci], rv[ci]};
      return moments(v, (ni * c + ci) * inner, inner, 1, 0);
    };
    return std::vector<Tensor>{channel_normalize(x, param_values(a, 3), param_values(a, 4), eps, stats)};
  };
  return op;
}

// --- group_norm ---------------------------------------------------------------------

OpInfo group_norm_op() {
  OpInfo op;
  op.name = "group_norm";
  op.aliases = {"torch.nn.functional.group_norm", "torch.group_norm"};
  op.params = {param_tensor("input"), param_int("num_groups"), param_opt_tensor("weight"),
               param_opt_tensor("bias"), param_real("eps", 1e-5),
               param_ignored("cudnn_enabled", Arg::make_bool(true))};
  op.doc = "normalises each group of channels per sample, then a per-channel affine";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(int64_t c, channels(a));
    PF_ASSIGN(int64_t g, a.integer(1));
    if (g <= 0 || c % g != 0) {
      return a.error(1, "the " + std::to_string(c) + " channels must divide into " +
                            std::to_string(g) + " groups");
    }
    PF_TRY(check_param(a, 2, c, "one per channel"));
    PF_TRY(check_param(a, 3, c, "one per channel"));
    PF_TRY(a.real(4));
    return same_as_input(a);
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(int64_t g, a.integer(1));
    PF_ASSIGN(double eps, a.real(4));
    std::vector<double> w = param_values(a, 2), b = param_values(a, 3);
    int64_t n = x.shape()[0], c = x.shape()[1];
    int64_t inner = n * c == 0 ? 0 : x.numel() / (n * c);
    int64_t per_group = c / g;
    std::vector<double> v = read_doubles(x);
    for (int64_t ni = 0; ni < n; ++ni) {
      for (int64_t gi = 0; gi < g; ++gi) {
        int64_t start = (ni * c + gi * per_group) * inner;
        Moments m = moments(v, start, per_group * inner, 1, 0);
        double inv = 1.0 / std::sqrt(m.var + eps);
        for (int64_t ci = gi * per_group; ci < (gi + 1) * per_group; ++ci) {
          double scale = w.empty() ? inv : inv * w[ci];
          double shift = b.empty() ? 0.0 : b[ci];
          double* p = v.data() + (ni * c + ci) * inner;
          for (int64_t i = 0; i < inner; ++i) p[i] = (p[i] - m.mean) * scale + shift;
        }
      }
    }
    return std::vector<Tensor>{Tensor::from_doubles(x.dtype(), x.shape(), v)};
  };
  return op;
}

// --- layer_norm / rms_norm -----------------------------------------------------------

// The number of trailing elements normalised together, checking
// normalized_shape (param 1) against the input's trailing dims.
template <typename T>
Result<int64_t> trailing_size(const BoundArgs<T>& a) {
  const Shape& s = shape_of(a.tensor(0));
  PF_TRY(require_floating(a, 0, dtype_of(a.tensor(0))));
  PF_ASSIGN(std::vector<int64_t> ns, a.ints(1));
  bool fits = ns.size() <= s.size();
  for (size_t i = 0; fits && i < ns.size(); ++i) fits = s[s.size() - ns.size() + i] == ns[i];
  if (!fits) {
    return a.error(1, "normalized_shape " + shape_str(ns) +
                          " must match the trailing dims of the input " + shape_str(s));
  }
  return shape_numel(ns);
}

// y = normalise(x per row) * w + b over rows of `d` trailing elements; `rms`
// drops the mean (rms_norm).
Tensor row_normalize(const Tensor& x, int64_t d, const std::vector<double>& w,
                     const std::vector<double>& b, double eps, bool rms) {
  std::vector<double> v = read_doubles(x);
  int64_t rows = d == 0 ? 0 : x.numel() / d;
  for (int64_t r = 0; r < rows; ++r) {
    double* p = v.data() + r * d;
    double mean = 0, inv = 0;
    if (rms) {
      double sq = 0;
      for (int64_t i = 0; i < d; ++i) sq += p[i] * p[i];
      inv = 1.0 / std::sqrt(sq / static_cast<double>(d) + eps);
    } else {
      Moments m = moments(v, r * d, d, 1, 0);
      mean = m.mean;
      inv = 1.0 / std::sqrt(m.var + eps);
    }
    for (int64_t i = 0; i < d; ++i) {
      double y = (p[i] - mean) * inv;
      if (!w.empty()) y *= w[i];
      if (!b.empty()) y += b[i];
      p[i] = y;
    }
  }
  return Tensor::from_doubles(x.dtype(), x.shape(), v);
}

OpInfo layer_norm_op() {
  OpInfo op;
  op.name = "layer_norm";
  op.aliases = {"torch.nn.functional.layer_norm", "torch.layer_norm"};
  op.params = {param_tensor("input"),     param_ints("normalized_shape"),
               param_opt_tensor("weight"), param_opt_tensor("bias"),
               param_real("eps", 1e-5),    param_ignored("cudnn_enable", Arg::make_bool(true))};
  op.doc = "normalises over the trailing normalized_shape dims, then weight/bias";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(int64_t d, trailing_size(a));
    PF_TRY(check_param(a, 2, d, "normalized_shape"));
    PF_TRY(check_param(a, 3, d, "normalized_shape"));
    PF_TRY(a.real(4));
    return same_as_input(a);
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(int64_t d, trailing_size(a));
    PF_ASSIGN(double eps, a.real(4));
    return std::vector<Tensor>{
        row_normalize(a.tensor(0), d, param_values(a, 2), param_values(a, 3), eps, false)};
  };
  return op;
}

// torch.finfo(dtype).eps, rms_norm's default.
double finfo_eps(DType t) {
  switch (t) {
    case DType::float16: return 0.0009765625;
    case DType::bfloat16: return 0.0078125;
    case DType::float64: return std::numeric_limits<double>::epsilon();
    default: return std::numeric_limits<float>::epsilon();
  }
}

OpInfo rms_norm_op() {
  OpInfo op;
  op.name = "rms_norm";
  op.aliases = {"torch.nn.functional.rms_norm", "torch.rms_norm"};
  op.params = {param_tensor("input"), param_ints("normalized_shape"), param_opt_tensor("weight"),
               param_opt_real("eps")};
  op.doc = "x / sqrt(mean(x^2) + eps) * weight over the trailing dims (eps: the dtype's epsilon)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(int64_t d, trailing_size(a));
    PF_TRY(check_param(a, 2, d, "normalized_shape"));
    if (!a.is_none(3)) PF_TRY(a.real(3));
    return same_as_input(a);
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>&) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(int64_t d, trailing_size(a));
    double eps = finfo_eps(a.tensor(0).dtype());
    if (!a.is_none(3)) {
      PF_ASSIGN(eps, a.real(3));
    }
    return std::vector<Tensor>{row_normalize(a.tensor(0), d, param_values(a, 2), {}, eps, true)};
  };
  return op;
}

}  // namespace

void register_normalization_ops(OpRegistry& r) {
  r.add(batch_norm_op());
  r.add(instance_norm_op());
  r.add(group_norm_op());
  r.add(layer_norm_op());
  r.add(rms_norm_op());
}

}  // namespace pf
