// F.grid_sample(input, grid, mode, padding_mode, align_corners), 2-d: each
// output position (n, h, w) samples input[n] at the grid point grid[n, h, w]
// = (x, y) in [-1, 1], as PyTorch's grid_sampler_2d: the point unnormalized
// to pixel coordinates (align_corners: -1 and 1 are the corner pixels'
// centres; else their outer edges), then clipped (border) or reflected
// (reflection) into the image, a non-finite or huge coordinate out of bounds;
// bilinear weighs the four neighbours by area (those outside count as 0),
// nearest takes the pixel at the coordinates rounded half to even (0
// outside). In float64, rounded once. bicubic and 5-d inputs are refused.
// The GPU baseline: kernels/grid_sample.cu.
#include <climits>
#include <cmath>

#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

enum class Padding : uint8_t { zeros, border, reflection };

double clip(double c, int64_t size) {
  return std::min(static_cast<double>(size - 1), std::max(c, 0.0));
}

double reflect(double c, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return 0;
  const double low = static_cast<double>(twice_low) / 2;
  const double span = static_cast<double>(twice_high - twice_low) / 2;
  c = std::fabs(c - low);
  const double extra = std::fmod(c, span);
  const auto flips = static_cast<int64_t>(std::floor(c / span));
  return flips % 2 == 0 ? extra + low : span - extra + low;
}

double source_index(double c, int64_t size, Padding padding, bool align) {
  c = align ? (c + 1) / 2 * static_cast<double>(size - 1)
            : ((c + 1) * static_cast<double>(size) - 1) / 2;
  if (padding == Padding::border) c = clip(c, size);
  if (padding == Padding::reflection) {
    c = align ? reflect(c, 0, 2 * (size - 1)) : reflect(c, -1, 2 * size - 1);
    c = clip(c, size);
  }
  if (!std::isfinite(c) || c > INT_MAX - 1 || c < INT_MIN + 1) return -100;
  return c;
}

Result<Padding> read_padding(const ArgReader& a, size_t i) {
  PF_ASSIGN(std::string s, a.string(i));
  if (s == "zeros") return Padding::zeros;
  if (s == "border") return Padding::border;
  if (s == "reflection") return Padding::reflection;
  return a.error(i,
                 "nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                 "'border', or 'reflection', but got: '" +
                     s + "'");
}

Result<bool> read_nearest(const ArgReader& a, size_t i) {
  PF_ASSIGN(std::string s, a.string(i));
  if (s == "bilinear") return false;
  if (s == "nearest") return true;
  if (s == "bicubic") return a.error(i, "grid_sample with mode 'bicubic' is not supported here");
  return a.error(i,
                 "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
                 "'bicubic', but got: '" +
                     s + "'");
}

OpInfo grid_sample_op() {
  OpInfo op;
  op.name = "grid_sample";
  op.aliases = {"torch.nn.functional.grid_sample"};
  op.params = {tensor_param("input"), tensor_param("grid"),
               param("mode", ParamKind::string, Arg::make_string("bilinear")),
               param("padding_mode", ParamKind::string, Arg::make_string("zeros")),
               param("align_corners", ParamKind::boolean, Arg::make_none())};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    const TensorType& g = a.tensor(1);
    if (!is_floating(x.dtype)) {
      return a.error(0,
                     std::string("grid_sample takes a floating input, got ") + dtype_name(x.dtype));
    }
    if (g.dtype != x.dtype) {
      return a.error(1,
                     "grid_sampler(): expected input and grid to have same dtype, but input "
                     "has " +
                         std::string(dtype_name(x.dtype)) + " and grid has " + dtype_name(g.dtype));
    }
    if (x.shape.size() != 4) {
      return a.error(
          0, "grid_sample takes a 4-d input (N, C, H, W) here, got shape " + shape_str(x.shape));
    }
    if (g.shape.size() != 4 || g.shape[3] != 2 || g.shape[0] != x.shape[0]) {
      return a.error(1, "grid_sample expects a grid of shape (N, H_out, W_out, 2) with N = " +
                            std::to_string(x.shape[0]) + ", got " + shape_str(g.shape));
    }
    if (x.shape[2] == 0 || x.shape[3] == 0) {
      return a.error(
          0, "grid_sample expects input with non-empty spatial dims, got " + shape_str(x.shape));
    }
    PF_TRY(read_nearest(a, 2));
    PF_TRY(read_padding(a, 3));
    if (!a.is_none(4)) PF_TRY(a.boolean(4));
    return std::vector<TensorType>{{x.dtype, {x.shape[0], x.shape[1], g.shape[1], g.shape[2]}}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    const Tensor& g = a.tensor(1);
    PF_ASSIGN(bool nearest, read_nearest(a, 2));
    PF_ASSIGN(Padding padding, read_padding(a, 3));
    bool align = false;
    if (!a.is_none(4)) {
      PF_ASSIGN(align, a.boolean(4));
    }
    const Tensor xc = x.contiguous_copy();
    const Tensor gc = g.contiguous_copy();
    const std::vector<double> in = xc.to_doubles();
    const std::vector<double> grid = gc.to_doubles();
    const Shape& s = out[0].shape;
    const int64_t batch = s[0], channels = s[1], oh = s[2], ow = s[3];
    const int64_t h = x.shape()[2], w = x.shape()[3];
    std::vector<double> y(static_cast<size_t>(shape_numel(s)));
    auto at = [&](int64_t n, int64_t c, int64_t iy, int64_t ix) {
      if (iy < 0 || iy >= h || ix < 0 || ix >= w) return 0.0;
      return in[static_cast<size_t>(((n * channels + c) * h + iy) * w + ix)];
    };
    for (int64_t n = 0; n < batch; ++n) {
      for (int64_t i = 0; i < oh; ++i) {
        for (int64_t j = 0; j < ow; ++j) {
          const size_t gi = static_cast<size_t>(((n * oh + i) * ow + j) * 2);
          const double ix = source_index(grid[gi], w, padding, align);
          const double iy = source_index(grid[gi + 1], h, padding, align);
          for (int64_t c = 0; c < channels; ++c) {
            double v = 0;
            if (nearest) {
              v = at(n, c, static_cast<int64_t>(std::nearbyint(iy)),
                     static_cast<int64_t>(std::nearbyint(ix)));
            } else {
              const auto x0 = static_cast<int64_t>(std::floor(ix));
              const auto y0 = static_cast<int64_t>(std::floor(iy));
              const double fx0 = static_cast<double>(x0), fy0 = static_cast<double>(y0);
              const double fx1 = fx0 + 1, fy1 = fy0 + 1;
              // PyTorch's order: the four areas, then value times area, summed.
              const double nw = (fx1 - ix) * (fy1 - iy), ne = (ix - fx0) * (fy1 - iy);
              const double sw = (fx1 - ix) * (iy - fy0), se = (ix - fx0) * (iy - fy0);
              v = at(n, c, y0, x0) * nw + at(n, c, y0, x0 + 1) * ne + at(n, c, y0 + 1, x0) * sw +
                  at(n, c, y0 + 1, x0 + 1) * se;
            }
            y[static_cast<size_t>(((n * channels + c) * oh + i) * ow + j)] = v;
          }
        }
      }
    }
    return std::vector<Tensor>{Tensor::from_doubles(x.dtype(), s, y)};
  };
  op.doc = "samples a 4-d input at grid points (x, y in [-1, 1]): bilinear or nearest";
  return op;
}

}  // namespace

void register_grid_sample_ops(OpRegistry& r) {
  r.add(grid_sample_op());
}

}  // namespace pf
