// Adaptive pooling: adaptive_avg_pool1d/2d/3d and adaptive_max_pool1d/2d/3d. Output
// cell o of a dim covers input [floor(o * I / O), ceil((o + 1) * I / O)), as
// in PyTorch. output_size is an int or a tuple whose None entries keep the
// input's size. adaptive_max_pool with return_indices=True is the op
// adaptive_max_pool<n>d_with_indices: (values, int64 argmax in the input plane).
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
Result<PoolShape> plan_adaptive(const BoundArgs<T>& a, int nd) {
  PF_TRY(require_floating(a, 0, dtype_of(a.tensor(0))));
  PF_ASSIGN(PoolShape s, pool_shape(a, nd));
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

struct AdaptiveResult {
  std::vector<double> values;
  // max only: the argmax's offset in the input plane; the window's first
  // element when nothing beats -inf, the last NaN when it holds one (PyTorch).
  std::vector<int64_t> indices;
};

AdaptiveResult run_adaptive(const PoolShape& s, const std::vector<double>& x, bool is_max) {
  AdaptiveResult r;
  r.values.resize(static_cast<size_t>(s.planes * s.out_volume()));
  if (is_max) r.indices.resize(r.values.size());
  for (int64_t c = 0; c < s.planes; ++c) {
    const double* xp = x.data() + c * s.in_volume();
    double* yp = r.values.data() + c * s.out_volume();
    for (int64_t od = 0; od < s.out[0]; ++od) {
      AdaptiveSpan sd = adaptive_span(od, s.out[0], s.in[0]);
      for (int64_t oh = 0; oh < s.out[1]; ++oh) {
        AdaptiveSpan sh = adaptive_span(oh, s.out[1], s.in[1]);
        for (int64_t ow = 0; ow < s.out[2]; ++ow) {
          AdaptiveSpan sw = adaptive_span(ow, s.out[2], s.in[2]);
          double acc = is_max ? -std::numeric_limits<double>::infinity() : 0.0;
          int64_t best = (sd.lo * s.in[1] + sh.lo) * s.in[2] + sw.lo;
          for (int64_t id = sd.lo; id < sd.hi; ++id) {
            for (int64_t ih = sh.lo; ih < sh.hi; ++ih) {
              const int64_t row_at = (id * s.in[1] + ih) * s.in[2];
              for (int64_t iw = sw.lo; iw < sw.hi; ++iw) {
                double v = xp[row_at + iw];
                if (!is_max) {
                  acc += v;
                } else if (v > acc || std::isnan(v)) {
                  acc = v;
                  best = row_at + iw;
                }
              }
            }
          }
          if (!is_max) {
            acc /= static_cast<double>((sd.hi - sd.lo) * (sh.hi - sh.lo) * (sw.hi - sw.lo));
          }
          const int64_t o = (od * s.out[1] + oh) * s.out[2] + ow;
          yp[o] = acc;
          if (is_max) r.indices[static_cast<size_t>(c * s.out_volume() + o)] = best;
        }
      }
    }
  }
  return r;
}

OpInfo adaptive_op(int nd, bool is_max, bool with_indices = false) {
  OpInfo op;
  std::string kind = is_max ? "max" : "avg";
  op.name = "adaptive_" + kind + "_pool" + std::to_string(nd) + "d";
  if (with_indices) {
    op.name += "_with_indices";
    op.returns_list = true;
  } else if (is_max) {
    // adaptive_max_pool(input, output_size, return_indices)
    op.overload = layout::return_indices_overload(op.name + "_with_indices", 2);
  }
  op.aliases = {"torch.nn.functional." + op.name};
  if (!is_max) {
    op.aliases.push_back(nd == 1 ? "torch.adaptive_avg_pool1d"
                                 : "torch._C._nn.adaptive_avg_pool" + std::to_string(nd) + "d");
  }
  op.params = {param_tensor("input"), ParamDef{"output_size", ParamKind::int_list}};
  if (is_max) op.params.push_back(param_bool("return_indices", false));
  op.doc = with_indices ? "(max over adaptive windows, int64 argmax in each input plane)"
                        : kind + " over adaptive windows giving exactly output_size cells";
  op.infer = [nd, is_max,
              with_indices](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(PoolShape s, plan_adaptive(a, nd));
    std::vector<TensorType> types = {TensorType{a.tensor(0).dtype, s.out_shape}};
    if (with_indices) types.push_back(TensorType{DType::int64, s.out_shape});
    return types;
  };
  op.cpu = [nd, is_max, with_indices](
               const BoundArgs<Tensor>& a,
               const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(PoolShape s, plan_adaptive(a, nd));
    AdaptiveResult r = run_adaptive(s, read_doubles(a.tensor(0)), is_max);
    std::vector<Tensor> outs = {Tensor::from_doubles(out[0].dtype, out[0].shape, r.values)};
    if (with_indices) {
      Tensor idx = Tensor::zeros(DType::int64, out[1].shape);
      for (size_t k = 0; k < r.indices.size(); ++k) {
        idx.set_int(static_cast<int64_t>(k), r.indices[k]);
      }
      outs.push_back(std::move(idx));
    }
    return outs;
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
  for (int nd = 1; nd <= 3; ++nd) r.add(adaptive_op(nd, true, true));
}

}  // namespace pf
