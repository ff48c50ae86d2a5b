// Windowed pooling: max_pool1d/2d/3d, avg_pool1d/2d/3d, with PyTorch's output
// size rule (ceil_mode drops a last window that would start in the right
// padding), padding limits, avg's count_include_pad / divisor_override, and
// max's NaN propagation and return_indices (max_pool<n>d_with_indices: the
// argmax as PyTorch numbers it). Every rank runs as 3-d (2-d with depth 1).
#include <cmath>
#include <limits>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/pool_util.h"

namespace pf {
namespace {

using namespace layout;

enum class PoolKind : uint8_t { max, avg };

struct PoolPlan {
  PoolShape sh;
  int64_t k[3] = {1, 1, 1}, stride[3] = {1, 1, 1}, pad[3] = {0, 0, 0}, dil[3] = {1, 1, 1};
  bool ceil_mode = false;
  bool count_include_pad = true;
  std::optional<int64_t> divisor;
};

// PyTorch's pooling_output_shape.
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

// Parameter positions: max (input, kernel_size, stride, padding, dilation,
// ceil_mode, return_indices); avg (input, kernel_size, stride, padding,
// ceil_mode, count_include_pad[, divisor_override]).
template <typename T>
Result<PoolPlan> plan_pool(const BoundArgs<T>& a, int nd, PoolKind kind) {
  PoolPlan p;
  PF_ASSIGN(p.sh, pool_shape(a, nd));
  size_t n = static_cast<size_t>(nd);
  PF_ASSIGN(std::vector<int64_t> k, ints_n(a, 1, n));
  PF_ASSIGN(std::vector<int64_t> stride, ints_n_or(a, 2, n, k));
  PF_ASSIGN(std::vector<int64_t> pad, ints_n(a, 3, n));
  std::vector<int64_t> dil(n, 1);
  if (kind == PoolKind::max) {
    PF_ASSIGN(dil, ints_n(a, 4, n));
    PF_ASSIGN(p.ceil_mode, a.boolean(5));
    // return_indices selects the op (return_indices_overload), so its value is
    // not read here.
  } else {
    PF_ASSIGN(p.ceil_mode, a.boolean(4));
    PF_ASSIGN(p.count_include_pad, a.boolean(5));
    if (a.size() > 6 && !a.is_none(6)) {
      PF_ASSIGN(int64_t div, a.integer(6));
      if (div == 0) return a.error(6, "divisor_override must not be zero");
      p.divisor = div;
    }
  }
  for (size_t d = 0; d < n; ++d) {
    if (k[d] <= 0) return a.error(1, "kernel_size must be positive");
    if (stride[d] <= 0) return a.error(2, "stride must be positive");
    if (dil[d] <= 0) return a.error(4, "dilation must be positive");
    int64_t limit = kind == PoolKind::max ? ((k[d] - 1) * dil[d] + 1) / 2 : k[d] / 2;
    if (pad[d] < 0 || pad[d] > limit) {
      return a.error(3, "padding " + std::to_string(pad[d]) +
                            " must be at most half of the (effective) kernel size");
    }
  }
  set_spatial(p.k, k, nd);
  set_spatial(p.stride, stride, nd);
  set_spatial(p.pad, pad, nd);
  set_spatial(p.dil, dil, nd);
  int64_t out[3] = {1, 1, 1};
  for (int d = 3 - nd; d < 3; ++d) {
    out[d] = pooled_size(p.sh.in[d], p.k[d], p.pad[d], p.stride[d], p.dil[d], p.ceil_mode);
    if (out[d] < 1) {
      return a.error(0,
                     "the output size is too small for input " + shape_str(shape_of(a.tensor(0))));
    }
  }
  set_output(p.sh, out);
  return p;
}

struct MaxPoolResult {
  std::vector<double> values;
  // PyTorch's argmax: the offset in the input plane's (d, h, w) volume;
  // the first tap inside the input when nothing beats -inf, the last NaN
  // when the window holds one.
  std::vector<int64_t> indices;
};

MaxPoolResult run_max(const PoolPlan& p, const std::vector<double>& x) {
  const PoolShape& s = p.sh;
  MaxPoolResult r;
  r.values.resize(static_cast<size_t>(s.planes * s.out_volume()));
  r.indices.resize(r.values.size());
  for (int64_t c = 0; c < s.planes; ++c) {
    const double* xp = x.data() + c * s.in_volume();
    double* yp = r.values.data() + c * s.out_volume();
    int64_t* ip = r.indices.data() + c * s.out_volume();
    for (int64_t od = 0; od < s.out[0]; ++od) {
      for (int64_t oh = 0; oh < s.out[1]; ++oh) {
        for (int64_t ow = 0; ow < s.out[2]; ++ow) {
          double m = -std::numeric_limits<double>::infinity();
          int64_t best = -1;
          for (int64_t kd = 0; kd < p.k[0]; ++kd) {
            int64_t id = od * p.stride[0] - p.pad[0] + kd * p.dil[0];
            if (id < 0 || id >= s.in[0]) continue;
            for (int64_t kh = 0; kh < p.k[1]; ++kh) {
              int64_t ih = oh * p.stride[1] - p.pad[1] + kh * p.dil[1];
              if (ih < 0 || ih >= s.in[1]) continue;
              for (int64_t kw = 0; kw < p.k[2]; ++kw) {
                int64_t iw = ow * p.stride[2] - p.pad[2] + kw * p.dil[2];
                if (iw < 0 || iw >= s.in[2]) continue;
                const int64_t at = (id * s.in[1] + ih) * s.in[2] + iw;
                const double v = xp[at];
                if (best < 0) best = at;
                if (v > m || std::isnan(v)) {  // a NaN stays: nothing compares above it
                  m = v;
                  best = at;
                }
              }
            }
          }
          const int64_t o = (od * s.out[1] + oh) * s.out[2] + ow;
          yp[o] = m;
          ip[o] = best;
        }
      }
    }
  }
  return r;
}

// One window dim of avg pooling: [lo, hi) clamped to the input, and the
// extent counted with padding (PyTorch's pool_size factor).
struct AvgSpan {
  int64_t lo, hi, padded;
};

AvgSpan avg_span(int64_t o, int64_t stride, int64_t pad, int64_t k, int64_t in) {
  int64_t lo = o * stride - pad;
  int64_t hi = std::min(lo + k, in + pad);
  AvgSpan s{lo, hi, hi - lo};
  s.lo = std::max<int64_t>(s.lo, 0);
  s.hi = std::min(s.hi, in);
  return s;
}

std::vector<double> run_avg(const PoolPlan& p, const std::vector<double>& x) {
  const PoolShape& s = p.sh;
  std::vector<double> y(static_cast<size_t>(s.planes * s.out_volume()));
  for (int64_t c = 0; c < s.planes; ++c) {
    const double* xp = x.data() + c * s.in_volume();
    double* yp = y.data() + c * s.out_volume();
    for (int64_t od = 0; od < s.out[0]; ++od) {
      AvgSpan sd = avg_span(od, p.stride[0], p.pad[0], p.k[0], s.in[0]);
      for (int64_t oh = 0; oh < s.out[1]; ++oh) {
        AvgSpan sh = avg_span(oh, p.stride[1], p.pad[1], p.k[1], s.in[1]);
        for (int64_t ow = 0; ow < s.out[2]; ++ow) {
          AvgSpan sw = avg_span(ow, p.stride[2], p.pad[2], p.k[2], s.in[2]);
          double& out = yp[(od * s.out[1] + oh) * s.out[2] + ow];
          if (sd.lo >= sd.hi || sh.lo >= sh.hi || sw.lo >= sw.hi) {
            out = 0;
            continue;
          }
          double sum = 0;
          for (int64_t id = sd.lo; id < sd.hi; ++id) {
            for (int64_t ih = sh.lo; ih < sh.hi; ++ih) {
              const double* row = xp + (id * s.in[1] + ih) * s.in[2];
              for (int64_t iw = sw.lo; iw < sw.hi; ++iw) sum += row[iw];
            }
          }
          int64_t divide = p.divisor ? *p.divisor
                           : p.count_include_pad
                               ? sd.padded * sh.padded * sw.padded
                               : (sd.hi - sd.lo) * (sh.hi - sh.lo) * (sw.hi - sw.lo);
          out = sum / static_cast<double>(divide);
        }
      }
    }
  }
  return y;
}

OpInfo pool_op(int nd, PoolKind kind, std::vector<std::string> aliases, bool with_indices = false) {
  OpInfo op;
  op.name = std::string(kind == PoolKind::max ? "max_pool" : "avg_pool") + std::to_string(nd) + "d";
  if (with_indices) {
    op.name += "_with_indices";
    op.returns_list = true;
  } else if (kind == PoolKind::max) {
    // max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)
    op.overload = layout::return_indices_overload(op.name + "_with_indices", 6);
  }
  op.aliases = std::move(aliases);
  std::vector<int64_t> zero(static_cast<size_t>(nd), 0), one(static_cast<size_t>(nd), 1);
  op.params = {param_tensor("input"), param_ints("kernel_size"), param_opt_ints("stride"),
               param_ints("padding", zero)};
  if (kind == PoolKind::max) {
    op.params.push_back(param_ints("dilation", one));
    op.params.push_back(param_bool("ceil_mode", false));
    op.params.push_back(param_bool("return_indices", false));
    op.doc = with_indices ? "(max over windows, int64 argmax in each input plane)"
                          : "max over windows (stride defaults to kernel_size)";
  } else {
    op.params.push_back(param_bool("ceil_mode", false));
    op.params.push_back(param_bool("count_include_pad", true));
    if (nd >= 2) op.params.push_back(param_opt_int("divisor_override"));
    op.doc = "mean over windows (stride defaults to kernel_size)";
  }
  op.infer = [nd, kind,
              with_indices](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_TRY(require_floating(a, 0, a.tensor(0).dtype));
    PF_ASSIGN(PoolPlan p, plan_pool(a, nd, kind));
    std::vector<TensorType> types = {TensorType{a.tensor(0).dtype, p.sh.out_shape}};
    if (with_indices) types.push_back(TensorType{DType::int64, p.sh.out_shape});
    return types;
  };
  op.cpu = [nd, kind, with_indices](
               const BoundArgs<Tensor>& a,
               const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(PoolPlan p, plan_pool(a, nd, kind));
    std::vector<double> x = read_doubles(a.tensor(0));
    if (kind == PoolKind::avg) {
      return std::vector<Tensor>{Tensor::from_doubles(out[0].dtype, out[0].shape, run_avg(p, x))};
    }
    MaxPoolResult r = run_max(p, x);
    std::vector<Tensor> outs = {Tensor::from_doubles(out[0].dtype, out[0].shape, r.values)};
    if (with_indices) {
      Tensor idx = Tensor::zeros(DType::int64, out[1].shape);
      for (size_t k = 0; k < r.indices.size(); ++k)
        idx.set_int(static_cast<int64_t>(k), r.indices[k]);
      outs.push_back(std::move(idx));
    }
    return outs;
  };
  return op;
}

}  // namespace

void register_pooling_ops(OpRegistry& r) {
  r.add(pool_op(1, PoolKind::max, {"torch.nn.functional.max_pool1d", "torch.max_pool1d"}));
  r.add(pool_op(2, PoolKind::max, {"torch.nn.functional.max_pool2d", "torch.max_pool2d"}));
  r.add(pool_op(3, PoolKind::max, {"torch.nn.functional.max_pool3d", "torch.max_pool3d"}));
  for (int nd = 1; nd <= 3; ++nd) {
    const std::string name = "max_pool" + std::to_string(nd) + "d_with_indices";
    r.add(pool_op(nd, PoolKind::max, {"torch.nn.functional." + name}, true));
  }
  r.add(pool_op(1, PoolKind::avg, {"torch.nn.functional.avg_pool1d", "torch.avg_pool1d"}));
  r.add(pool_op(2, PoolKind::avg, {"torch.nn.functional.avg_pool2d", "torch._C._nn.avg_pool2d"}));
  r.add(pool_op(3, PoolKind::avg, {"torch.nn.functional.avg_pool3d", "torch._C._nn.avg_pool3d"}));
}

}  // namespace pf
