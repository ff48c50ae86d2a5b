// interpolate (alias upsample): nearest, nearest-exact, (bi/tri)linear,
// bicubic and area over 1-3 spatial dims of an [N, C, *spatial] input;
// antialiased bilinear and bicubic (antialias=True) over 2. Also
// F.affine_grid (2-d), the sampling grid of an affine map.
//
// Every mode is separable, so the reference resamples one spatial dim at a
// time with per-output taps (input index, weight), accumulating in float64.
// Source coordinates and weights are computed as PyTorch computes them, in
// float for float32/float16/bfloat16 inputs and in double for float64 (its
// opmath type), because a coordinate landing on the other side of an integer
// would pick a different input element in nearest mode.
#include <algorithm>
#include <cmath>
#include <optional>

#include "evaluator/ops/affine_grid.h"
#include "evaluator/ops/interpolate_taps.h"
#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

using namespace layout;

enum class Mode : uint8_t { nearest, nearest_exact, linear, cubic, area };

enum Param : size_t { p_input, p_size, p_scale, p_mode, p_align, p_recompute, p_antialias };

using Tap = InterpTap;
using Taps = InterpTaps;

struct InterpPlan {
  Mode mode = Mode::nearest;
  bool align_corners = false;
  bool antialias = false;
  std::vector<int64_t> in, out;               // spatial sizes
  std::vector<std::optional<double>> scales;  // passed to the kernel (nullopt: in / out)
  Shape out_shape;
};

Result<std::vector<double>> scale_factors(const ArgReader& a, size_t dims) {
  const Arg& arg = a.arg(p_scale);
  std::vector<double> v;
  if (arg.is_sequence()) {
    for (const auto& item : arg.items) {
      if (!item.is_number()) return a.error(p_scale, "expects numbers");
      v.push_back(item.kind == Arg::Kind::real ? item.f : static_cast<double>(item.i));
    }
  } else {
    PF_ASSIGN(double s, a.real(p_scale));
    v.assign(dims, s);
  }
  if (v.size() != dims) {
    return a.error(p_scale, "expects " + std::to_string(dims) + " factors for " +
                                std::to_string(dims) + " spatial dims, got " +
                                std::to_string(v.size()));
  }
  for (double s : v) {
    if (!(s > 0)) return a.error(p_scale, "scale factors must be positive");
  }
  return v;
}

template <typename T>
Result<InterpPlan> plan_interpolate(const BoundArgs<T>& a) {
  InterpPlan p;
  const Shape& s = shape_of(a.tensor(p_input));
  PF_TRY(require_floating(a, p_input, dtype_of(a.tensor(p_input))));
  PF_ASSIGN(std::string mode, a.string(p_mode));
  size_t rank = s.size();
  size_t needs = 0;  // required rank, 0 = 3..5
  if (mode == "nearest") {
    p.mode = Mode::nearest;
  } else if (mode == "nearest-exact") {
    p.mode = Mode::nearest_exact;
  } else if (mode == "area") {
    p.mode = Mode::area;
  } else if (mode == "linear" || mode == "bilinear" || mode == "trilinear") {
    p.mode = Mode::linear;
    needs = mode == "linear" ? 3 : mode == "bilinear" ? 4 : 5;
  } else if (mode == "bicubic") {
    p.mode = Mode::cubic;
    needs = 4;
  } else {
    return a.error(p_mode, "unknown mode '" + mode +
                               "' (nearest, nearest-exact, linear, "
                               "bilinear, bicubic, trilinear, area)");
  }
  if (needs ? rank != needs : (rank < 3 || rank > 5)) {
    return a.error(p_input, "got a " + std::to_string(rank) + "-d input, but mode '" + mode +
                                "' needs " + (needs ? std::to_string(needs) : "3-d to 5-d") +
                                " input [N, C, spatial...]");
  }
  bool interpolating = p.mode == Mode::linear || p.mode == Mode::cubic;
  if (!a.is_none(p_align)) {
    if (!interpolating) {
      return a.error(p_align,
                     "align_corners can only be set with the interpolating modes "
                     "(linear, bilinear, bicubic, trilinear)");
    }
    PF_ASSIGN(p.align_corners, a.boolean(p_align));
  }
  PF_ASSIGN(p.antialias, a.boolean(p_antialias));
  if (p.antialias && (rank != 4 || !interpolating)) {
    return a.error(p_antialias, "antialias=True needs mode 'bilinear' or 'bicubic' (as PyTorch)");
  }
  size_t dims = rank - 2;
  p.in.assign(s.begin() + 2, s.end());
  for (int64_t d : p.in) {
    if (d <= 0)
      return a.error(p_input, "spatial dims must be non-empty, got shape " + shape_str(s));
  }
  bool has_size = !a.is_none(p_size), has_scale = !a.is_none(p_scale);
  if (has_size == has_scale) {
    return a.error(p_size, "exactly one of size and scale_factor must be given");
  }
  bool recompute = false;
  if (!a.is_none(p_recompute)) {
    PF_ASSIGN(recompute, a.boolean(p_recompute));
  }
  if (has_size) {
    if (recompute)
      return a.error(p_recompute, "recompute_scale_factor needs scale_factor, not size");
    PF_ASSIGN(p.out, ints_n(a, p_size, dims));
    for (int64_t o : p.out) {
      if (o <= 0) return a.error(p_size, "output sizes must be positive");
    }
    p.scales.assign(dims, std::nullopt);
  } else {
    PF_ASSIGN(std::vector<double> f, scale_factors(a, dims));
    for (size_t d = 0; d < dims; ++d) {
      p.out.push_back(static_cast<int64_t>(std::floor(static_cast<double>(p.in[d]) * f[d])));
      if (p.out.back() <= 0) return a.error(p_scale, "the scaled output size is not positive");
      p.scales.push_back(recompute ? std::nullopt : std::optional<double>(f[d]));
    }
  }
  p.out_shape = Shape(s.begin(), s.begin() + 2);
  p.out_shape.insert(p.out_shape.end(), p.out.begin(), p.out.end());
  return p;
}

// PyTorch's compute_scales_value / area_pixel_compute_scale in type C.
template <typename C>
C pixel_scale(int64_t in, int64_t out, bool align, std::optional<double> scale) {
  if (align) return out > 1 ? static_cast<C>(in - 1) / static_cast<C>(out - 1) : C(0);
  if (scale && *scale > 0) return static_cast<C>(1.0 / *scale);
  return static_cast<C>(in) / static_cast<C>(out);
}

template <typename C>
C source_index(C scale, int64_t dst, bool align, bool cubic) {
  if (align) return scale * static_cast<C>(dst);
  C src = scale * (static_cast<C>(dst) + C(0.5)) - C(0.5);
  return (!cubic && src < C(0)) ? C(0) : src;
}

template <typename C>
C cubic1(C x, C coeff) {
  return ((coeff + 2) * x - (coeff + 3)) * x * x + 1;
}
template <typename C>
C cubic2(C x, C coeff) {
  return ((coeff * x - 5 * coeff) * x + 8 * coeff) * x - 4 * coeff;
}

template <typename C>
Taps make_taps(Mode mode, int64_t in, int64_t out, bool align, std::optional<double> scale) {
  Taps taps(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) {
    auto& t = taps[o];
    switch (mode) {
      case Mode::nearest:
      case Mode::nearest_exact: {
        // Always float, as PyTorch's nearest kernels compute it.
        float s = pixel_scale<float>(in, out, false, scale);
        float v = mode == Mode::nearest
                      ? static_cast<float>(o) * s
                      : static_cast<float>((static_cast<double>(o) + 0.5) * static_cast<double>(s));
        int64_t src = std::min(static_cast<int64_t>(std::floor(v)), in - 1);
        // PyTorch's CPU nearest kernel special-cases these sizes exactly.
        if (mode == Mode::nearest && out == in) src = o;
        if (mode == Mode::nearest && out == 2 * in) src = o >> 1;
        t.push_back({src, 1.0});
        break;
      }
      case Mode::linear: {
        C s = pixel_scale<C>(in, out, align, scale);
        C real = source_index<C>(s, o, align, false);
        int64_t i0 = std::min(static_cast<int64_t>(std::floor(real)), in - 1);
        C l1 = std::min(std::max(real - static_cast<C>(i0), C(0)), C(1));
        int64_t i1 = i0 + (i0 < in - 1 ? 1 : 0);
        t.push_back({i0, static_cast<double>(C(1) - l1)});
        t.push_back({i1, static_cast<double>(l1)});
        break;
      }
      case Mode::cubic: {
        C s = pixel_scale<C>(in, out, align, scale);
        C real = source_index<C>(s, o, align, true);
        C fl = std::floor(real);
        int64_t ix = static_cast<int64_t>(fl);
        C x = real - fl, coeff = C(-0.75);
        C w[4] = {cubic2<C>(x + 1, coeff), cubic1<C>(x, coeff), cubic1<C>(1 - x, coeff),
                  cubic2<C>(2 - x, coeff)};
        for (int64_t k = 0; k < 4; ++k) {
          t.push_back({std::clamp<int64_t>(ix - 1 + k, 0, in - 1), static_cast<double>(w[k])});
        }
        break;
      }
      case Mode::area: {
        int64_t s0 = (o * in) / out, s1 = ((o + 1) * in + out - 1) / out;
        for (int64_t i = s0; i < s1; ++i) t.push_back({i, 1.0 / static_cast<double>(s1 - s0)});
        break;
      }
    }
  }
  return taps;
}

// PyTorch's antialiased resampling (_upsample_bilinear2d_aa /
// _upsample_bicubic2d_aa, PIL's filters): a triangle (bilinear) or Keys
// a = -0.5 (bicubic) filter, stretched by the downscale factor so that every
// input pixel under it counts, weights normalised to sum 1. The mixed
// float/double arithmetic is PyTorch's (its 0.5 literals are double).
template <typename C>
C aa_filter(Mode mode, C x) {
  x = std::fabs(x);
  if (mode == Mode::linear) return x < C(1) ? C(1) - x : C(0);
  const C coeff = C(-0.5);
  if (x < C(1)) return cubic1<C>(x, coeff);
  return x < C(2) ? cubic2<C>(x, coeff) : C(0);
}

template <typename C>
Taps make_aa_taps(Mode mode, int64_t in, int64_t out, bool align, std::optional<double> scale) {
  const C interp_size = mode == Mode::linear ? C(2) : C(4);
  const C s = pixel_scale<C>(in, out, align, scale);
  const C support = s >= C(1) ? (interp_size * C(0.5)) * s : interp_size * C(0.5);
  const C invscale = s >= C(1) ? C(1) / s : C(1);
  Taps taps(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) {
    const C center = static_cast<C>(static_cast<double>(s) * (static_cast<double>(o) + 0.5));
    // Truncation toward zero of x + 0.5, as PyTorch writes it (not rounding).
    const int64_t xmin = std::max(
        static_cast<int64_t>(std::trunc(static_cast<double>(center - support) + 0.5)), int64_t{0});
    const int64_t xsize =
        std::min(static_cast<int64_t>(std::trunc(static_cast<double>(center + support) + 0.5)),
                 in) -
        xmin;
    std::vector<C> w;
    C total = C(0);
    for (int64_t j = 0; j < xsize; ++j) {
      const double offset = static_cast<double>(static_cast<C>(j + xmin) - center) + 0.5;
      w.push_back(aa_filter<C>(mode, static_cast<C>(offset * static_cast<double>(invscale))));
      total += w.back();
    }
    for (int64_t j = 0; j < xsize; ++j) {
      C wj = w[static_cast<size_t>(j)];
      if (total != C(0)) wj /= total;
      taps[static_cast<size_t>(o)].push_back({xmin + j, static_cast<double>(wj)});
    }
  }
  return taps;
}

// Resamples dim `d` of a row-major array of `shape` with the given taps.
std::vector<double> resample(const std::vector<double>& x, Shape& shape, size_t d,
                             const Taps& taps) {
  int64_t outer = 1, inner = 1;
  for (size_t i = 0; i < d; ++i) outer *= shape[i];
  for (size_t i = d + 1; i < shape.size(); ++i) inner *= shape[i];
  int64_t in = shape[d], out = static_cast<int64_t>(taps.size());
  std::vector<double> y(static_cast<size_t>(outer * out * inner), 0.0);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < out; ++j) {
      double* yr = y.data() + (o * out + j) * inner;
      for (const Tap& t : taps[j]) {
        const double* xr = x.data() + (o * in + t.index) * inner;
        for (int64_t k = 0; k < inner; ++k) yr[k] += t.weight * xr[k];
      }
    }
  }
  shape[d] = out;
  return y;
}

Tensor run_interpolate(const Tensor& x, const InterpPlan& p, const TensorType& out_type) {
  std::vector<double> v = read_doubles(x);
  Shape shape = x.shape();
  bool dbl = x.dtype() == DType::float64;
  for (size_t d = 0; d < p.in.size(); ++d) {
    Taps taps = p.antialias ? antialias_taps(p.mode == Mode::cubic, dbl, p.in[d], p.out[d],
                                             p.align_corners, p.scales[d])
                : dbl ? make_taps<double>(p.mode, p.in[d], p.out[d], p.align_corners, p.scales[d])
                      : make_taps<float>(p.mode, p.in[d], p.out[d], p.align_corners, p.scales[d]);
    v = resample(v, shape, d + 2, taps);
  }
  return Tensor::from_doubles(out_type.dtype, out_type.shape, v);
}

}  // namespace

InterpTaps antialias_taps(bool bicubic, bool float64, int64_t in, int64_t out, bool align_corners,
                          std::optional<double> scale) {
  const Mode mode = bicubic ? Mode::cubic : Mode::linear;
  return float64 ? make_aa_taps<double>(mode, in, out, align_corners, scale)
                 : make_aa_taps<float>(mode, in, out, align_corners, scale);
}

namespace {

// linspace(-1, 1, n) as PyTorch's linspace_from_neg_one: 0 for n <= 1, else
// rounded to dtype, times (n - 1) / n without align_corners.
double neg_one_to_one(int64_t i, int64_t n, bool align_corners, DType dtype) {
  if (n <= 1) return 0;
  const double step = 2.0 / static_cast<double>(n - 1);
  double v = i < n / 2 ? -1.0 + step * static_cast<double>(i)
                       : 1.0 - step * static_cast<double>(n - 1 - i);
  v = round_to_dtype(v, dtype);
  if (align_corners) return v;
  return round_to_dtype(
      round_to_dtype(v * static_cast<double>(n - 1), dtype) / static_cast<double>(n), dtype);
}

// theta [N, 2, 3] and size [N, C, H, W]: the grid [N, H, W, 2].
template <typename T>
Result<Shape> affine_grid_shape(const BoundArgs<T>& a, const Shape& theta) {
  PF_ASSIGN(std::vector<int64_t> size, a.ints(1));
  if (size.size() != 4) {
    return a.error(1, "only 2-d grids (size [N, C, H, W]) are supported, got " +
                          std::to_string(size.size()) + " sizes");
  }
  if (theta.size() != 3 || theta[0] != size[0] || theta[1] != 2 || theta[2] != 3) {
    return a.error(0, "expected a batch of 2-d affine matrices of shape [" +
                          std::to_string(size[0]) + ", 2, 3] for size " + shape_str(size) +
                          ", got " + shape_str(theta));
  }
  for (int64_t d : size) {
    if (d < 0) return a.error(1, "negative size " + std::to_string(d));
  }
  return Shape{size[0], size[2], size[3], 2};
}

OpInfo affine_grid_op() {
  OpInfo op;
  op.name = "affine_grid";
  op.aliases = {"torch.nn.functional.affine_grid", "torch.affine_grid_generator"};
  op.params = {param_tensor("theta"), param_ints("size"),
               ParamDef{"align_corners", ParamKind::boolean, Arg::make_none()}};
  op.doc = "the [N, H, W, 2] sampling grid of affine maps theta [N, 2, 3] (for grid_sample)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_TRY(require_floating(a, 0, a.tensor(0).dtype));
    PF_ASSIGN(Shape out, affine_grid_shape(a, a.tensor(0).shape));
    return std::vector<TensorType>{{a.tensor(0).dtype, out}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& theta = a.tensor(0);
    const Shape& s = out[0].shape;
    const bool align = !a.is_none(2) && a.arg(2).b;
    const Tensor base = affine_base_grid(theta.dtype(), s[1], s[2], align);
    const std::vector<double> th = theta.to_doubles();
    const std::vector<double> bg = base.to_doubles();
    Tensor y = Tensor::zeros(out[0].dtype, s);
    const int64_t hw = s[1] * s[2];
    for (int64_t n = 0; n < s[0]; ++n) {
      for (int64_t p = 0; p < hw; ++p) {
        for (int64_t k = 0; k < 2; ++k) {
          double acc = 0;
          for (int64_t j = 0; j < 3; ++j) acc += bg[p * 3 + j] * th[(n * 2 + k) * 3 + j];
          y.set((n * hw + p) * 2 + k, acc);
        }
      }
    }
    return std::vector<Tensor>{y};
  };
  return op;
}

}  // namespace

Tensor affine_base_grid(DType dtype, int64_t h, int64_t w, bool align_corners) {
  Tensor base = Tensor::zeros(dtype, {h * w, 3});
  for (int64_t i = 0; i < h; ++i) {
    for (int64_t j = 0; j < w; ++j) {
      base.set((i * w + j) * 3 + 0, neg_one_to_one(j, w, align_corners, dtype));
      base.set((i * w + j) * 3 + 1, neg_one_to_one(i, h, align_corners, dtype));
      base.set((i * w + j) * 3 + 2, 1.0);
    }
  }
  return base;
}

void register_interpolate_ops(OpRegistry& r) {
  r.add(affine_grid_op());
  OpInfo op;
  op.name = "interpolate";
  op.aliases = {"torch.nn.functional.interpolate", "torch.nn.functional.upsample"};
  ParamDef align{"align_corners", ParamKind::boolean, Arg::make_none()};
  ParamDef recompute{"recompute_scale_factor", ParamKind::boolean, Arg::make_none()};
  op.params = {param_tensor("input"),
               param_opt_ints("size"),
               param_opt_real("scale_factor"),
               param_string("mode", "nearest"),
               align,
               recompute,
               param_bool("antialias", false)};
  op.doc =
      "resizes the spatial dims (size or scale_factor) by nearest, nearest-exact, "
      "(bi/tri)linear, bicubic or area";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(InterpPlan p, plan_interpolate(a));
    return std::vector<TensorType>{TensorType{a.tensor(p_input).dtype, p.out_shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(InterpPlan p, plan_interpolate(a));
    return std::vector<Tensor>{run_interpolate(a.tensor(p_input), p, out[0])};
  };
  r.add(std::move(op));
}

}  // namespace pf
