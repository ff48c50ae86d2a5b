// Adaptive pooling: adaptive_avg_pool1d/2d/3d and adaptive_max_pool1d/2d/3d. Output
// cell o of a dim covers input [floor(o * I / O), ceil((o + 1) * I / O)), as
// in PyTorch. output_size is an int or a tuple whose None entries keep the
// input's size.
#include <cmath>
#include <limits>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/pool_util.h"

namespace pf {
namespace {

using namespace layout;

template <typename T>
Result<PoolShape> plan_adaptive(const BoundArgs<T>& a, int nd, bool is_max) {
  PF_TRY(require_floating(a, 0, dtype_of(a.tensor(0))));
  PF_ASSIGN(PoolShape s, pool_shape(a, nd));
  if (is_max) {
    PF_ASSIGN(bool indices, a.boolean(2));
    if (indices) return a.error(2, "return_indices=True is not supported (use False)");
  }
  const Arg& arg = a.arg(1);
  std::vector<const Arg*> items;
  if (arg.is_sequence()) {
    for (const auto& item : arg.items) items.push_back(&item);
  } else {
    items.push_back(&arg);
  }
  if (items.size() == 1) {
    const Arg* only = items[0];
    items.assign(static_cast<size_t>(nd), only);
  }
  if (items.size() != static_cast<size_t>(nd)) {
    return a.error(1, "expects an int or " + std::to_string(nd) + " sizes");
  }
  std::vector<int64_t> in(s.in + (3 - nd), s.in + 3);
  for (int64_t d : in) {
    if (d <= 0) {
      return a.error(
          0, "spatial dims must be non-empty, got shape " + shape_str(shape_of(a.tensor(0))));
    }
  }
  std::vector<int64_t> out;
  for (size_t d = 0; d < items.size(); ++d) {
    if (items[d]->is_none()) {
      out.push_back(in[d]);
    } else if (items[d]->kind == Arg::Kind::integer && items[d]->i >= 0) {
      out.push_back(items[d]->i);
    } else {
      return a.error(1, "sizes must be non-negative ints or None");
    }
    if (out.back() == 0) return a.error(1, "output sizes must be positive");
  }
  int64_t out3[3] = {1, 1, 1};
  set_spatial(out3, out, nd);
  set_output(s, out3);
  return s;
}

int64_t start_index(int64_t o, int64_t out, int64_t in) {
  return (o * in) / out;
}
int64_t end_index(int64_t o, int64_t out, int64_t in) {
  return ((o + 1) * in + out - 1) / out;
}

// The window of output cell o along one dim.
struct AdaptiveSpan {
  int64_t lo, hi;
};

AdaptiveSpan adaptive_span(int64_t o, int64_t out, int64_t in) {
  return {start_index(o, out, in), end_index(o, out, in)};
}

std::vector<double> run_adaptive(const PoolShape& s, const std::vector<double>& x, bool is_max) {
  std::vector<double> y(static_cast<size_t>(s.planes * s.out_volume()));
  for (int64_t c = 0; c < s.planes; ++c) {
    const double* xp = x.data() + c * s.in_volume();
    double* yp = y.data() + c * s.out_volume();
    for (int64_t od = 0; od < s.out[0]; ++od) {
      AdaptiveSpan sd = adaptive_span(od, s.out[0], s.in[0]);
      for (int64_t oh = 0; oh < s.out[1]; ++oh) {
        AdaptiveSpan sh = adaptive_span(oh, s.out[1], s.in[1]);
        for (int64_t ow = 0; ow < s.out[2]; ++ow) {
          AdaptiveSpan sw = adaptive_span(ow, s.out[2], s.in[2]);
          double acc = is_max ? -std::numeric_limits<double>::infinity() : 0.0;
          for (int64_t id = sd.lo; id < sd.hi; ++id) {
            for (int64_t ih = sh.lo; ih < sh.hi; ++ih) {
              const double* row = xp + (id * s.in[1] + ih) * s.in[2];
              for (int64_t iw = sw.lo; iw < sw.hi; ++iw) {
                double v = row[iw];
                if (!is_max) {
                  acc += v;
                } else if (v > acc || std::isnan(v)) {
                  acc = v;
                }
              }
            }
          }
          if (!is_max) {
            acc /= static_cast<double>((sd.hi - sd.lo) * (sh.hi - sh.lo) * (sw.hi - sw.lo));
          }
          yp[(od * s.out[1] + oh) * s.out[2] + ow] = acc;
        }
      }
    }
  }
  return y;
}

OpInfo adaptive_op(int nd, bool is_max) {
  OpInfo op;
  std::string kind = is_max ? "max" : "avg";
  op.name = "adaptive_" + kind + "_pool" + std::to_string(nd) + "d";
  op.aliases = {"torch.nn.functional." + op.name};
  if (!is_max) {
    op.aliases.push_back(nd == 1 ? "torch.adaptive_avg_pool1d"
                                 : "torch._C._nn.adaptive_avg_pool" + std::to_string(nd) + "d");
  }
  op.params = {param_tensor("input"), ParamDef{"output_size", ParamKind::int_list}};
  if (is_max) op.params.push_back(param_bool("return_indices", false));
  op.doc = kind + " over adaptive windows giving exactly output_size cells";
  op.infer = [nd, is_max](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(PoolShape s, plan_adaptive(a, nd, is_max));
    return std::vector<TensorType>{TensorType{a.tensor(0).dtype, s.out_shape}};
  };
  op.cpu = [nd, is_max](const BoundArgs<Tensor>& a,
                        const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(PoolShape s, plan_adaptive(a, nd, is_max));
    std::vector<double> y = run_adaptive(s, read_doubles(a.tensor(0)), is_max);
    return std::vector<Tensor>{Tensor::from_doubles(out[0].dtype, out[0].shape, y)};
  };
  return op;
}

}  // namespace

void register_adaptive_pool_ops(OpRegistry& r) {
  r.add(adaptive_op(1, false));
  r.add(adaptive_op(2, false));
  r.add(adaptive_op(3, false));
  r.add(adaptive_op(1, true));
  r.add(adaptive_op(2, true));
  r.add(adaptive_op(3, true));
}

}  // namespace pf
