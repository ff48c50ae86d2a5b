// Convolutions: conv1d, conv2d, conv3d and their transposes. Every rank runs
// as 3-d: 2-d with a depth of 1, 1-d with depth and height of 1. Parameters follow PyTorch: stride,
// padding (ints, or 'same' / 'valid' for the forward convs; 'same' pads the extra element on the
// right as PyTorch does), dilation, groups; bias optional; unbatched inputs accepted. The CPU
// reference accumulates in float64: im2col + the blocked gemm_nt for ordinary convolutions (several
// GFLOP/s on one core), direct loops along contiguous output rows for depthwise ones and the
// transposes.
#include <algorithm>

#include "evaluator/ops/gemm.h"
#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

struct ConvPlan {
  bool transposed = false;
  bool batched = true;
  int nd = 2;  // spatial dims as written (1, 2 or 3)
  int64_t n = 1, c_in = 0, c_out = 0, groups = 1;
  // Spatial geometry as 3-d (index 0 = depth, 1 = height, 2 = width).
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1}, dil[3] = {1, 1, 1}, pad_lo[3] = {0, 0, 0}, pad_hi[3] = {0, 0, 0};
  Shape out_shape;
};

enum ConvParam : size_t { kInput, kWeight, kBias, kStride, kPadding };

// Copies nd per-dim values into the last nd of the 3-d slots.
void set3(int64_t (&dst)[3], const std::vector<int64_t>& v, int nd) {
  for (int d = 0; d < nd; ++d) dst[3 - nd + d] = v[static_cast<size_t>(d)];
}

template <typename T>
Result<ConvPlan> plan_conv(const BoundArgs<T>& a, int nd, bool transposed) {
  ConvPlan p;
  p.nd = nd;
  p.transposed = transposed;
  size_t n = static_cast<size_t>(nd);
  // Parameter positions: forward (…, stride, padding, dilation, groups);
  // transposed (…, stride, padding, output_padding, groups, dilation).
  const size_t i_dil = transposed ? 7 : 5, i_groups = 6;
  const T& x = a.tensor(kInput);
  const T& w = a.tensor(kWeight);
  DType dt = dtype_of(x);
  PF_TRY(require_floating(a, kInput, dt));
  PF_TRY(require_same_dtype(a, kWeight, dt, dtype_of(w)));
  if (a.is_tensor(kBias)) PF_TRY(require_same_dtype(a, kBias, dt, dtype_of(a.tensor(kBias))));
  const Shape& xs = shape_of(x);
  const Shape& ws = shape_of(w);
  if (xs.size() != n + 1 && xs.size() != n + 2) {
    return a.error(kInput, "expects a " + std::to_string(n + 1) + "-d (unbatched) or " +
                               std::to_string(n + 2) + "-d input, got shape " + shape_str(xs));
  }
  if (ws.size() != n + 2) {
    return a.error(kWeight,
                   "expects a " + std::to_string(n + 2) + "-d weight, got shape " + shape_str(ws));
  }
  p.batched = xs.size() == n + 2;
  size_t off = p.batched ? 1 : 0;
  p.n = p.batched ? xs[0] : 1;
  p.c_in = xs[off];
  PF_ASSIGN(p.groups, a.integer(i_groups));
  if (p.groups <= 0) return a.error(i_groups, "groups must be positive");
  std::vector<int64_t> in_sp(xs.begin() + off + 1, xs.end()), k_sp(ws.begin() + 2, ws.end());
  set3(p.in, in_sp, nd);
  set3(p.k, k_sp, nd);
  if (!transposed) {
    if (ws[1] * p.groups != p.c_in) {
      return a.error(kWeight, "weight " + shape_str(ws) +
                                  " with groups=" + std::to_string(p.groups) + " expects " +
                                  std::to_string(ws[1] * p.groups) + " input channels, got " +
                                  std::to_string(p.c_in));
    }
    p.c_out = ws[0];
    if (p.c_out % p.groups != 0) {
      return a.error(kWeight, "out_channels must be divisible by groups");
    }
  } else {
    if (ws[0] != p.c_in || p.c_in % p.groups != 0) {
      return a.error(kWeight, "weight " + shape_str(ws) + " expects " + std::to_string(ws[0]) +
                                  " input channels (divisible by groups), got " +
                                  std::to_string(p.c_in));
    }
    p.c_out = ws[1] * p.groups;
  }
  if (a.is_tensor(kBias) && shape_numel(shape_of(a.tensor(kBias))) != p.c_out) {
    return a.error(kBias, "expects " + std::to_string(p.c_out) + " elements, got shape " +
                              shape_str(shape_of(a.tensor(kBias))));
  }
  PF_ASSIGN(std::vector<int64_t> stride, ints_n(a, kStride, n));
  PF_ASSIGN(std::vector<int64_t> dil, ints_n(a, i_dil, n));
  for (size_t d = 0; d < n; ++d) {
    if (stride[d] <= 0) return a.error(kStride, "stride must be positive");
    if (dil[d] <= 0) return a.error(i_dil, "dilation must be positive");
  }
  set3(p.stride, stride, nd);
  set3(p.dil, dil, nd);
  std::vector<int64_t> lo(n, 0), hi(n, 0);
  if (a.arg(kPadding).kind == Arg::Kind::string && !transposed) {
    std::string mode = a.arg(kPadding).s;
    if (mode == "same") {
      for (size_t d = 0; d < n; ++d) {
        if (stride[d] != 1) return a.error(kPadding, "padding='same' needs stride 1");
        int64_t total = dil[d] * (k_sp[d] - 1);
        lo[d] = total / 2;
        hi[d] = total - lo[d];
      }
    } else if (mode != "valid") {
      return a.error(kPadding, "padding must be ints, 'same' or 'valid', got '" + mode + "'");
    }
  } else {
    PF_ASSIGN(lo, ints_n(a, kPadding, n));
    for (int64_t v : lo) {
      if (v < 0) return a.error(kPadding, "padding must be non-negative");
    }
    hi = lo;
  }
  set3(p.pad_lo, lo, nd);
  set3(p.pad_hi, hi, nd);
  std::vector<int64_t> out_pad(n, 0);
  if (transposed) {
    PF_ASSIGN(out_pad, ints_n(a, 5, n));
    for (size_t d = 0; d < n; ++d) {
      if (out_pad[d] < 0 || (out_pad[d] >= stride[d] && out_pad[d] >= dil[d])) {
        return a.error(5, "output_padding must be smaller than either stride or dilation");
      }
    }
  }
  p.out_shape = p.batched ? Shape{p.n, p.c_out} : Shape{p.c_out};
  for (int d = 3 - nd; d < 3; ++d) {
    int64_t span = p.dil[d] * (p.k[d] - 1) + 1;
    if (!transposed) {
      int64_t padded = p.in[d] + p.pad_lo[d] + p.pad_hi[d];
      if (padded < span) {
        return a.error(kInput, "the (dilated) kernel size " + std::to_string(span) +
                                   " exceeds the padded input size " + std::to_string(padded));
      }
      p.out[d] = (padded - span) / p.stride[d] + 1;
    } else {
      int64_t op = out_pad[static_cast<size_t>(d - (3 - nd))];
      p.out[d] = (p.in[d] - 1) * p.stride[d] - p.pad_lo[d] - p.pad_hi[d] + span + op;
      if (p.out[d] <= 0) return a.error(kInput, "the computed output size is not positive");
    }
  }
  for (int d = 3 - nd; d < 3; ++d) p.out_shape.push_back(p.out[d]);
  return p;
}

// The range of positions j in [0, count) with 0 <= j * stride + base < limit.
std::pair<int64_t, int64_t> valid_range(int64_t base, int64_t stride, int64_t limit,
                                        int64_t count) {
  int64_t lo = base >= 0 ? 0 : (-base + stride - 1) / stride;
  int64_t top = limit - 1 - base;
  int64_t hi = top < 0 ? 0 : top / stride + 1;
  return {std::min(lo, count), std::clamp<int64_t>(hi, 0, count)};
}

// Direct loops: best when each output channel sees few input channels
// (depthwise), where im2col would copy as much as it computes.
std::vector<double> conv_direct(const ConvPlan& p, const std::vector<double>& x,
                                const std::vector<double>& w, const std::vector<double>& bias) {
  const int64_t D = p.in[0], H = p.in[1], W = p.in[2];
  const int64_t OD = p.out[0], OH = p.out[1], OW = p.out[2];
  const int64_t KD = p.k[0], KH = p.k[1], KW = p.k[2];
  const int64_t cg_in = p.c_in / p.groups, cg_out = p.c_out / p.groups;
  const int64_t in_plane = D * H * W, out_plane = OD * OH * OW, k_plane = KD * KH * KW;
  std::vector<double> y(static_cast<size_t>(p.n * p.c_out * out_plane), 0.0);
  for (int64_t ni = 0; ni < p.n; ++ni) {
    for (int64_t oc = 0; oc < p.c_out; ++oc) {
      double* yp = y.data() + (ni * p.c_out + oc) * out_plane;
      if (!bias.empty()) std::fill(yp, yp + out_plane, bias[oc]);
      int64_t g = oc / cg_out;
      for (int64_t ic = 0; ic < cg_in; ++ic) {
        const double* xp = x.data() + (ni * p.c_in + g * cg_in + ic) * in_plane;
        const double* wp = w.data() + (oc * cg_in + ic) * k_plane;
        for (int64_t kd = 0; kd < KD; ++kd) {
          const int64_t base_d = kd * p.dil[0] - p.pad_lo[0];
          auto [od0, od1] = valid_range(base_d, p.stride[0], D, OD);
          for (int64_t kh = 0; kh < KH; ++kh) {
            const int64_t base_h = kh * p.dil[1] - p.pad_lo[1];
            auto [oh0, oh1] = valid_range(base_h, p.stride[1], H, OH);
            for (int64_t kw = 0; kw < KW; ++kw) {
              double wv = wp[(kd * KH + kh) * KW + kw];
              int64_t base_w = kw * p.dil[2] - p.pad_lo[2];
              auto [ow0, ow1] = valid_range(base_w, p.stride[2], W, OW);
              for (int64_t od = od0; od < od1; ++od) {
                const double* xd = xp + (od * p.stride[0] + base_d) * H * W;
                for (int64_t oh = oh0; oh < oh1; ++oh) {
                  const double* xr = xd + (oh * p.stride[1] + base_h) * W;
                  double* yr = yp + (od * OH + oh) * OW;
                  if (p.stride[2] == 1) {
                    for (int64_t ow = ow0; ow < ow1; ++ow) yr[ow] += wv * xr[ow + base_w];
                  } else {
                    for (int64_t ow = ow0; ow < ow1; ++ow) {
                      yr[ow] += wv * xr[ow * p.stride[2] + base_w];
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return y;
}

// im2col + GEMM: per sample and group, blocks of output positions are
// unfolded into rows of their receptive fields, then multiplied by the
// weights ([out, in * kd * kh * kw], already row-major) in one gemm_nt.
std::vector<double> conv_gemm(const ConvPlan& p, const std::vector<double>& x,
                              const std::vector<double>& w, const std::vector<double>& bias) {
  const int64_t D = p.in[0], H = p.in[1], W = p.in[2];
  const int64_t OH = p.out[1], OW = p.out[2];
  const int64_t KD = p.k[0], KH = p.k[1], KW = p.k[2];
  const int64_t cg_in = p.c_in / p.groups, cg_out = p.c_out / p.groups;
  const int64_t K = cg_in * KD * KH * KW, positions = p.out[0] * OH * OW;
  constexpr int64_t kBlock = 256;
  std::vector<double> y(static_cast<size_t>(p.n * p.c_out * positions));
  std::vector<double> cols(static_cast<size_t>(std::min(kBlock, positions) * K));
  std::vector<double> prod(static_cast<size_t>(cg_out * std::min(kBlock, positions)));
  for (int64_t ni = 0; ni < p.n; ++ni) {
    for (int64_t g = 0; g < p.groups; ++g) {
      const double* xg = x.data() + (ni * p.c_in + g * cg_in) * D * H * W;
      const double* wg = w.data() + g * cg_out * K;
      for (int64_t q0 = 0; q0 < positions; q0 += kBlock) {
        int64_t count = std::min(kBlock, positions - q0);
        for (int64_t q = 0; q < count; ++q) {
          int64_t od = (q0 + q) / (OH * OW), oh = (q0 + q) / OW % OH, ow = (q0 + q) % OW;
          double* row = cols.data() + q * K;
          for (int64_t ic = 0; ic < cg_in; ++ic) {
            for (int64_t kd = 0; kd < KD; ++kd) {
              int64_t id = od * p.stride[0] - p.pad_lo[0] + kd * p.dil[0];
              bool plane_in = id >= 0 && id < D;
              for (int64_t kh = 0; kh < KH; ++kh) {
                int64_t ih = oh * p.stride[1] - p.pad_lo[1] + kh * p.dil[1];
                bool row_in = plane_in && ih >= 0 && ih < H;
                for (int64_t kw = 0; kw < KW; ++kw) {
                  int64_t iw = ow * p.stride[2] - p.pad_lo[2] + kw * p.dil[2];
                  *row++ =
                      row_in && iw >= 0 && iw < W ? xg[((ic * D + id) * H + ih) * W + iw] : 0.0;
                }
              }
            }
          }
        }
        gemm_nt(wg, cols.data(), prod.data(), cg_out, count, K);
        for (int64_t oc = 0; oc < cg_out; ++oc) {
          int64_t c = g * cg_out + oc;
          double b = bias.empty() ? 0.0 : bias[c];
          double* yr = y.data() + (ni * p.c_out + c) * positions + q0;
          for (int64_t q = 0; q < count; ++q) yr[q] = prod[oc * count + q] + b;
        }
      }
    }
  }
  return y;
}

std::vector<double> conv_forward(const ConvPlan& p, const std::vector<double>& x,
                                 const std::vector<double>& w, const std::vector<double>& bias) {
  return p.c_out / p.groups >= 8 ? conv_gemm(p, x, w, bias) : conv_direct(p, x, w, bias);
}

std::vector<double> conv_transposed(const ConvPlan& p, const std::vector<double>& x,
                                    const std::vector<double>& w, const std::vector<double>& bias) {
  const int64_t D = p.in[0], H = p.in[1], W = p.in[2];
  const int64_t OD = p.out[0], OH = p.out[1], OW = p.out[2];
  const int64_t KD = p.k[0], KH = p.k[1], KW = p.k[2];
  const int64_t cg_in = p.c_in / p.groups, cg_out = p.c_out / p.groups;
  const int64_t in_plane = D * H * W, out_plane = OD * OH * OW, k_plane = KD * KH * KW;
  std::vector<double> y(static_cast<size_t>(p.n * p.c_out * out_plane), 0.0);
  for (int64_t ni = 0; ni < p.n; ++ni) {
    for (int64_t oc = 0; oc < p.c_out; ++oc) {
      double* yp = y.data() + (ni * p.c_out + oc) * out_plane;
      if (!bias.empty()) std::fill(yp, yp + out_plane, bias[oc]);
      int64_t g = oc / cg_out, oc_in_group = oc % cg_out;
      for (int64_t ic = 0; ic < cg_in; ++ic) {
        int64_t c = g * cg_in + ic;
        const double* xp = x.data() + (ni * p.c_in + c) * in_plane;
        const double* wp = w.data() + (c * cg_out + oc_in_group) * k_plane;
        for (int64_t kd = 0; kd < KD; ++kd) {
          // output plane od = id * stride + kd * dil - pad must land in [0, OD)
          const int64_t base_d = kd * p.dil[0] - p.pad_lo[0];
          auto [id0, id1] = valid_range(base_d, p.stride[0], OD, D);
          for (int64_t kh = 0; kh < KH; ++kh) {
            const int64_t base_h = kh * p.dil[1] - p.pad_lo[1];
            auto [ih0, ih1] = valid_range(base_h, p.stride[1], OH, H);
            for (int64_t kw = 0; kw < KW; ++kw) {
              double wv = wp[(kd * KH + kh) * KW + kw];
              int64_t base_w = kw * p.dil[2] - p.pad_lo[2];
              auto [iw0, iw1] = valid_range(base_w, p.stride[2], OW, W);
              for (int64_t id = id0; id < id1; ++id) {
                double* yd = yp + (id * p.stride[0] + base_d) * OH * OW;
                for (int64_t ih = ih0; ih < ih1; ++ih) {
                  const double* xr = xp + (id * H + ih) * W;
                  double* yr = yd + (ih * p.stride[1] + base_h) * OW;
                  for (int64_t iw = iw0; iw < iw1; ++iw)
                    yr[iw * p.stride[2] + base_w] += wv * xr[iw];
                }
              }
            }
          }
        }
      }
    }
  }
  return y;
}

OpInfo conv_op(int nd, bool transposed) {
  OpInfo op;
  std::string base = transposed ? "conv_transpose" : "conv";
  op.name = base + std::to_string(nd) + "d";
  op.aliases = {"torch." + op.name, "torch.nn.functional." + op.name};
  std::vector<int64_t> one(static_cast<size_t>(nd), 1), zero(static_cast<size_t>(nd), 0);
  op.params = {param_tensor("input"), param_tensor("weight"), param_opt_tensor("bias"),
               param_ints("stride", one), param_ints("padding", zero)};
  if (transposed) {
    op.params.push_back(param_ints("output_padding", zero));
    op.params.push_back(param_int("groups", 1));
    op.params.push_back(param_ints("dilation", one));
    op.doc =
        "transposed " + std::to_string(nd) + "-d convolution (weight [C_in, C_out/groups, k...])";
  } else {
    op.params.push_back(param_ints("dilation", one));
    op.params.push_back(param_int("groups", 1));
    op.doc = std::to_string(nd) +
             "-d convolution (weight [C_out, C_in/groups, k...]); padding "
             "ints, 'same' or 'valid'";
  }
  op.infer = [nd, transposed](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(ConvPlan p, plan_conv(a, nd, transposed));
    return std::vector<TensorType>{TensorType{a.tensor(kInput).dtype, p.out_shape}};
  };
  op.cpu = [nd, transposed](const BoundArgs<Tensor>& a,
                            const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(ConvPlan p, plan_conv(a, nd, transposed));
    std::vector<double> x = read_doubles(a.tensor(kInput));
    std::vector<double> w = read_doubles(a.tensor(kWeight));
    std::vector<double> b =
        a.is_tensor(kBias) ? read_doubles(a.tensor(kBias)) : std::vector<double>{};
    std::vector<double> y = transposed ? conv_transposed(p, x, w, b) : conv_forward(p, x, w, b);
    return std::vector<Tensor>{Tensor::from_doubles(out[0].dtype, out[0].shape, y)};
  };
  return op;
}

}  // namespace

void register_conv_ops(OpRegistry& r) {
  r.add(conv_op(1, false));
  r.add(conv_op(2, false));
  r.add(conv_op(3, false));
  r.add(conv_op(1, true));
  r.add(conv_op(2, true));
  r.add(conv_op(3, true));
}

}  // namespace pf
