// torch.nn.functional's losses on the GPU, composed of registered GPU ops
// the way PyTorch 1.13's ATen composes or computes them (Loss.cpp,
// LossNLL.cpp): no kernel of their own. Half inputs compute in float32 and
// round once at the end, as PyTorch's kernels compute in float (opmath) and
// accumulate in float. Class-index targets are data: an index out of range
// reads zero in gather / index_select (no fault), where the CPU reference
// reports it as PyTorch does.
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/loss_reduction.h"

namespace pf::gpu {
namespace {

using P = LossReductionParams;

// Tensor parameter i in the compute dtype (nullopt-like: undefined when None).
Result<DeviceTensor> operand_in(PlanBuilder& b, const GpuArgs& a, size_t i, DType c) {
  if (a.is_none(i)) return DeviceTensor();
  return as_dtype(b, a.tensor(i), c);
}

Result<DeviceTensor> op1(PlanBuilder& b, const std::string& op, std::vector<CallArg> args,
                         std::vector<std::pair<std::string, CallArg>> kw = {}) {
  return call_gpu_op1(b, op, std::move(args), std::move(kw));
}

// PyTorch's apply_loss_reduction, then one rounding to the output dtype.
// `batch`: kl_div's batchmean divisor (the input's first size).
Result<std::vector<DeviceTensor>> finish(PlanBuilder& b, DeviceTensor loss, LossReduction r,
                                         int64_t batch, DType out) {
  if (r == LossReduction::mean) {
    PF_ASSIGN(loss, op1(b, "mean", {loss}));
  } else if (r == LossReduction::sum || r == LossReduction::batchmean) {
    PF_ASSIGN(loss, op1(b, "sum", {loss}));
    if (r == LossReduction::batchmean) {
      PF_ASSIGN(loss, op1(b, "div", {loss, Arg::make_int(batch)}));
    }
  }
  PF_ASSIGN(DeviceTensor y, as_dtype(b, loss, out));
  return std::vector<DeviceTensor>{y};
}

int64_t first_size(const DeviceTensor& t) {
  return t.shape().empty() ? 1 : t.shape()[0];
}

// ---- pointwise losses ---------------------------------------------------------------------

// loss(x, t) elementwise in the compute dtype, from the bound arguments.
using PointwiseFn = std::function<Result<DeviceTensor>(
    PlanBuilder&, const GpuArgs&, const DeviceTensor& x, const DeviceTensor& t)>;

GpuOpFn pointwise_loss(P red, const PointwiseFn& fn) {
  return [red, fn](const GpuArgs& a, const std::vector<TensorType>& out,
                   PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    const DType c = composite_compute_dtype(out[0].dtype);
    PF_ASSIGN(LossReduction r, read_loss_reduction(a, red));
    PF_ASSIGN(DeviceTensor x, as_dtype(b, a.tensor(0), c));
    PF_ASSIGN(DeviceTensor t, as_dtype(b, a.tensor(1), c));
    PF_ASSIGN(DeviceTensor loss, fn(b, a, x, t));
    return finish(b, loss, r, first_size(a.tensor(0)), out[0].dtype);
  };
}

Result<DeviceTensor> abs_diff(PlanBuilder& b, const DeviceTensor& x, const DeviceTensor& t) {
  PF_ASSIGN(DeviceTensor d, op1(b, "sub", {x, t}));
  return op1(b, "abs", {d});
}

// z < k ? q(z) : l(z), PyTorch's select of the quadratic and the linear piece.
Result<DeviceTensor> piecewise(PlanBuilder& b, const DeviceTensor& z, double k,
                               const DeviceTensor& quadratic, const DeviceTensor& linear) {
  PF_ASSIGN(DeviceTensor below, op1(b, "lt", {z, Arg::make_real(k)}));
  return op1(b, "where", {below, quadratic, linear});
}

Result<DeviceTensor> mse(PlanBuilder& b, const GpuArgs&, const DeviceTensor& x,
                         const DeviceTensor& t) {
  PF_ASSIGN(DeviceTensor d, op1(b, "sub", {x, t}));
  return op1(b, "mul", {d, d});
}

Result<DeviceTensor> l1(PlanBuilder& b, const GpuArgs&, const DeviceTensor& x,
                        const DeviceTensor& t) {
  return abs_diff(b, x, t);
}

// z < beta ? 0.5 z^2 / beta : z - 0.5 beta; beta 0 is l1 (F.smooth_l1_loss).
Result<DeviceTensor> smooth_l1(PlanBuilder& b, const GpuArgs& a, const DeviceTensor& x,
                               const DeviceTensor& t) {
  PF_ASSIGN(double beta, a.real(5));
  PF_ASSIGN(DeviceTensor z, abs_diff(b, x, t));
  if (beta == 0) return z;
  PF_ASSIGN(DeviceTensor z2, op1(b, "mul", {z, z}));
  PF_ASSIGN(DeviceTensor half_z2, op1(b, "mul", {z2, Arg::make_real(0.5)}));
  PF_ASSIGN(DeviceTensor quadratic, op1(b, "div", {half_z2, Arg::make_real(beta)}));
  PF_ASSIGN(DeviceTensor linear, op1(b, "sub", {z, Arg::make_real(0.5 * beta)}));
  return piecewise(b, z, beta, quadratic, linear);
}

// z < delta ? 0.5 z^2 : delta (z - 0.5 delta).
Result<DeviceTensor> huber(PlanBuilder& b, const GpuArgs& a, const DeviceTensor& x,
                           const DeviceTensor& t) {
  PF_ASSIGN(double delta, a.real(3));
  PF_ASSIGN(DeviceTensor z, abs_diff(b, x, t));
  PF_ASSIGN(DeviceTensor z2, op1(b, "mul", {z, z}));
  PF_ASSIGN(DeviceTensor quadratic, op1(b, "mul", {z2, Arg::make_real(0.5)}));
  PF_ASSIGN(DeviceTensor shifted, op1(b, "sub", {z, Arg::make_real(0.5 * delta)}));
  PF_ASSIGN(DeviceTensor linear, op1(b, "mul", {shifted, Arg::make_real(delta)}));
  return piecewise(b, z, delta, quadratic, linear);
}

// log_target ? exp(t) (t - x) : xlogy(t, t) - t x (PyTorch 1.13's kl_div).
Result<DeviceTensor> kl_div(PlanBuilder& b, const GpuArgs& a, const DeviceTensor& x,
                            const DeviceTensor& t) {
  PF_ASSIGN(bool log_target, a.boolean(5));
  if (log_target) {
    PF_ASSIGN(DeviceTensor e, op1(b, "exp", {t}));
    PF_ASSIGN(DeviceTensor d, op1(b, "sub", {t, x}));
    return op1(b, "mul", {e, d});
  }
  PF_ASSIGN(DeviceTensor entropy, op1(b, "xlogy", {t, t}));
  PF_ASSIGN(DeviceTensor cross, op1(b, "mul", {t, x}));
  return op1(b, "sub", {entropy, cross});
}

// ---- binary cross entropy -----------------------------------------------------------------

Result<DeviceTensor> clamped_log(PlanBuilder& b, const DeviceTensor& v) {
  PF_ASSIGN(DeviceTensor l, op1(b, "log", {v}));
  return op1(b, "clamp", {l}, {{"min", Arg::make_real(-100.0)}});
}

Result<DeviceTensor> weighted(PlanBuilder& b, const DeviceTensor& loss, const DeviceTensor& w) {
  if (!w.defined()) return loss;
  return op1(b, "mul", {loss, w});
}

// (t - 1) max(log(1 - x), -100) - t max(log(x), -100), times weight.
Result<std::vector<DeviceTensor>> run_binary_cross_entropy(const GpuArgs& a,
                                                           const std::vector<TensorType>& out,
                                                           PlanBuilder& b) {
  static constexpr P kReduction{3, 4, 5, false};
  const DType c = composite_compute_dtype(out[0].dtype);
  PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
  PF_ASSIGN(DeviceTensor x, as_dtype(b, a.tensor(0), c));
  PF_ASSIGN(DeviceTensor t, as_dtype(b, a.tensor(1), c));
  PF_ASSIGN(DeviceTensor w, operand_in(b, a, 2, c));
  PF_ASSIGN(DeviceTensor one_minus_x, op1(b, "rsub", {x, Arg::make_int(1)}));
  PF_ASSIGN(DeviceTensor log_not, clamped_log(b, one_minus_x));
  PF_ASSIGN(DeviceTensor log_x, clamped_log(b, x));
  PF_ASSIGN(DeviceTensor t_minus_one, op1(b, "sub", {t, Arg::make_int(1)}));
  PF_ASSIGN(DeviceTensor first, op1(b, "mul", {t_minus_one, log_not}));
  PF_ASSIGN(DeviceTensor second, op1(b, "mul", {t, log_x}));
  PF_ASSIGN(DeviceTensor loss, op1(b, "sub", {first, second}));
  PF_ASSIGN(loss, weighted(b, loss, w));
  return finish(b, loss, r, 1, out[0].dtype);
}

// PyTorch 1.13's form: m = max(-x, 0); (1 - t) x + lw (log(exp(-m) + exp(-x - m)) + m) with
// lw = (pos_weight - 1) t + 1 (1 without pos_weight); times weight.
Result<std::vector<DeviceTensor>> run_bce_with_logits(const GpuArgs& a,
                                                      const std::vector<TensorType>& out,
                                                      PlanBuilder& b) {
  static constexpr P kReduction{3, 4, 5, false};
  const DType c = composite_compute_dtype(out[0].dtype);
  PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
  PF_ASSIGN(DeviceTensor x, as_dtype(b, a.tensor(0), c));
  PF_ASSIGN(DeviceTensor t, as_dtype(b, a.tensor(1), c));
  PF_ASSIGN(DeviceTensor w, operand_in(b, a, 2, c));
  PF_ASSIGN(DeviceTensor pw, operand_in(b, a, 6, c));
  PF_ASSIGN(DeviceTensor neg_x, op1(b, "neg", {x}));
  PF_ASSIGN(DeviceTensor m, op1(b, "clamp", {neg_x}, {{"min", Arg::make_int(0)}}));
  PF_ASSIGN(DeviceTensor neg_m, op1(b, "neg", {m}));
  PF_ASSIGN(DeviceTensor e1, op1(b, "exp", {neg_m}));
  PF_ASSIGN(DeviceTensor shifted, op1(b, "sub", {neg_x, m}));
  PF_ASSIGN(DeviceTensor e2, op1(b, "exp", {shifted}));
  PF_ASSIGN(DeviceTensor s, op1(b, "add", {e1, e2}));
  PF_ASSIGN(DeviceTensor log_s, op1(b, "log", {s}));
  PF_ASSIGN(DeviceTensor softplus, op1(b, "add", {log_s, m}));
  PF_ASSIGN(DeviceTensor one_minus_t, op1(b, "rsub", {t, Arg::make_int(1)}));
  PF_ASSIGN(DeviceTensor linear, op1(b, "mul", {one_minus_t, x}));
  if (pw.defined()) {
    PF_ASSIGN(DeviceTensor pw1, op1(b, "sub", {pw, Arg::make_int(1)}));
    PF_ASSIGN(DeviceTensor pw1t, op1(b, "mul", {pw1, t}));
    PF_ASSIGN(DeviceTensor lw, op1(b, "add", {pw1t, Arg::make_int(1)}));
    PF_ASSIGN(softplus, op1(b, "mul", {lw, softplus}));
  }
  PF_ASSIGN(DeviceTensor loss, op1(b, "add", {linear, softplus}));
  PF_ASSIGN(loss, weighted(b, loss, w));
  return finish(b, loss, r, 1, out[0].dtype);
}

// ---- nll_loss and cross_entropy -----------------------------------------------------------

// What nll_loss reduces, in the target's shape: -w[t] x[n, t, d] (0 where t is
// ignore_index), the weights w[t] (0 where ignored) and the ignored mask.
struct NllParts {
  DeviceTensor loss, weight, ignored;
};

// `logp` in the compute dtype, class dim 1 (a 1-d input is viewed as [1, C]);
// `target` of logp's shape without dim 1.
Result<NllParts> nll_parts(PlanBuilder& b, const DeviceTensor& logp, const DeviceTensor& target,
                           const DeviceTensor& weight, int64_t ignore_index) {
  NllParts p;
  PF_ASSIGN(p.ignored, op1(b, "eq", {target, Arg::make_int(ignore_index)}));
  PF_ASSIGN(DeviceTensor safe, op1(b, "masked_fill", {target, p.ignored, Arg::make_int(0)}));
  PF_ASSIGN(DeviceTensor index, op1(b, "unsqueeze", {safe, Arg::make_int(1)}));
  PF_ASSIGN(DeviceTensor picked, op1(b, "gather", {logp, Arg::make_int(1), index}));
  PF_ASSIGN(picked, op1(b, "squeeze", {picked, Arg::make_int(1)}));
  DeviceTensor w;
  if (weight.defined()) {
    PF_ASSIGN(DeviceTensor flat, op1(b, "reshape", {safe, int_list({-1})}));
    PF_ASSIGN(DeviceTensor chosen, op1(b, "index_select", {weight, Arg::make_int(0), flat}));
    PF_ASSIGN(w, op1(b, "reshape", {chosen, int_list(target.shape())}));
  } else {
    PF_ASSIGN(w, op1(b, "ones_like", {picked}));
  }
  PF_ASSIGN(p.weight, op1(b, "masked_fill", {w, p.ignored, Arg::make_int(0)}));
  PF_ASSIGN(DeviceTensor product, op1(b, "mul", {picked, p.weight}));
  PF_ASSIGN(p.loss, op1(b, "neg", {product}));
  return p;
}

// nll_loss's reduction: 'mean' divides by the weights of the targets not ignored.
Result<DeviceTensor> reduce_nll(PlanBuilder& b, const NllParts& p, LossReduction r) {
  if (r == LossReduction::none) return p.loss;
  PF_ASSIGN(DeviceTensor s, op1(b, "sum", {p.loss}));
  if (r == LossReduction::sum) return s;
  PF_ASSIGN(DeviceTensor total, op1(b, "sum", {p.weight}));
  return op1(b, "div", {s, total});
}

// A 1-d input [C] (0-d target) is one row: [1, C] and [1]; `squeeze` undoes it.
struct ClassOperands {
  DeviceTensor input, target;
  bool squeeze = false;
};

Result<ClassOperands> class_operands(PlanBuilder& b, const DeviceTensor& input,
                                     const DeviceTensor& target, DType c) {
  ClassOperands o;
  PF_ASSIGN(o.input, as_dtype(b, input, c));
  o.target = target;
  if (input.dim() == 1) {
    o.squeeze = true;
    PF_ASSIGN(o.input, op1(b, "unsqueeze", {o.input, Arg::make_int(0)}));
    PF_ASSIGN(o.target, op1(b, "unsqueeze", {o.target, Arg::make_int(0)}));
  }
  return o;
}

Result<std::vector<DeviceTensor>> unrow(PlanBuilder& b, DeviceTensor loss, bool squeeze,
                                        LossReduction r, DType out) {
  if (squeeze && r == LossReduction::none) {
    PF_ASSIGN(loss, op1(b, "squeeze", {loss, Arg::make_int(0)}));
  }
  PF_ASSIGN(DeviceTensor y, as_dtype(b, loss, out));
  return std::vector<DeviceTensor>{y};
}

Result<std::vector<DeviceTensor>> run_nll_loss(const GpuArgs& a, const std::vector<TensorType>& out,
                                               PlanBuilder& b) {
  static constexpr P kReduction{3, 5, 6, false};
  const DType c = composite_compute_dtype(out[0].dtype);
  PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
  PF_ASSIGN(int64_t ignore_index, a.integer(4));
  PF_ASSIGN(ClassOperands o, class_operands(b, a.tensor(0), a.tensor(1), c));
  PF_ASSIGN(DeviceTensor w, operand_in(b, a, 2, c));
  PF_ASSIGN(NllParts p, nll_parts(b, o.input, o.target, w, ignore_index));
  PF_ASSIGN(DeviceTensor loss, reduce_nll(b, p, r));
  return unrow(b, loss, o.squeeze, r, out[0].dtype);
}

// The weight viewed along the class dim of a rank-`rank` input ([1, C, 1, ...]).
Result<DeviceTensor> class_weight_view(PlanBuilder& b, const DeviceTensor& w, int64_t rank) {
  std::vector<int64_t> shape(static_cast<size_t>(rank), 1);
  shape[1] = w.shape()[0];
  return op1(b, "reshape", {w, int_list(shape)});
}

// Probability targets: -sum_c(logp * t' * w) with t' = t (1 - ls) + ls / C; 'mean' divides
// by numel / C (the number of rows).
Result<DeviceTensor> cross_entropy_probs(PlanBuilder& b, const DeviceTensor& logp,
                                         const DeviceTensor& target, const DeviceTensor& w,
                                         LossReduction r, double ls) {
  const int64_t classes = logp.shape()[1];
  DeviceTensor t = target;
  if (ls > 0) {
    PF_ASSIGN(t, op1(b, "mul", {t, Arg::make_real(1 - ls)}));
    PF_ASSIGN(t, op1(b, "add", {t, Arg::make_real(ls / static_cast<double>(classes))}));
  }
  PF_ASSIGN(DeviceTensor prod, op1(b, "mul", {logp, t}));
  if (w.defined()) {
    PF_ASSIGN(DeviceTensor wv, class_weight_view(b, w, logp.dim()));
    PF_ASSIGN(prod, op1(b, "mul", {prod, wv}));
  }
  if (r == LossReduction::none) {
    PF_ASSIGN(DeviceTensor rows, op1(b, "sum", {prod, int_list({1})}));
    return op1(b, "neg", {rows});
  }
  PF_ASSIGN(DeviceTensor s, op1(b, "sum", {prod}));
  PF_ASSIGN(s, op1(b, "neg", {s}));
  if (r == LossReduction::sum) return s;
  return op1(b, "div", {s, Arg::make_int(logp.numel() / classes)});
}

// Class indices with label smoothing ls (PyTorch 1.13's cross_entropy_loss_label_smoothing):
// (1 - ls) nll + ls / C * smooth, smooth = -sum_c(logp * w) per target (0 where ignored),
// its 'mean' divided by the weights of the targets kept (their count without weight).
Result<DeviceTensor> cross_entropy_smoothed(PlanBuilder& b, const DeviceTensor& logp,
                                            const NllParts& p, const DeviceTensor& w,
                                            LossReduction r, double ls) {
  const int64_t classes = logp.shape()[1];
  DeviceTensor terms = logp;
  if (w.defined()) {
    PF_ASSIGN(DeviceTensor wv, class_weight_view(b, w, logp.dim()));
    PF_ASSIGN(terms, op1(b, "mul", {logp, wv}));
  }
  PF_ASSIGN(DeviceTensor rows, op1(b, "sum", {terms, int_list({1})}));
  PF_ASSIGN(DeviceTensor smooth, op1(b, "neg", {rows}));
  PF_ASSIGN(smooth, op1(b, "masked_fill", {smooth, p.ignored, Arg::make_int(0)}));
  PF_ASSIGN(DeviceTensor nll, reduce_nll(b, p, r));
  if (r != LossReduction::none) {
    PF_ASSIGN(smooth, op1(b, "sum", {smooth}));
    if (r == LossReduction::mean) {
      DeviceTensor kept;
      if (w.defined()) {
        PF_ASSIGN(kept, op1(b, "sum", {p.weight}));
      } else {
        PF_ASSIGN(DeviceTensor valid, op1(b, "logical_not", {p.ignored}));
        PF_ASSIGN(kept, op1(b, "sum", {valid}));
      }
      PF_ASSIGN(smooth, op1(b, "div", {smooth, kept}));
    }
  }
  PF_ASSIGN(DeviceTensor a, op1(b, "mul", {nll, Arg::make_real(1 - ls)}));
  PF_ASSIGN(DeviceTensor s,
            op1(b, "mul", {smooth, Arg::make_real(ls / static_cast<double>(classes))}));
  return op1(b, "add", {a, s});
}

Result<std::vector<DeviceTensor>> run_cross_entropy(const GpuArgs& a,
                                                    const std::vector<TensorType>& out,
                                                    PlanBuilder& b) {
  static constexpr P kReduction{3, 5, 6, false};
  const DType c = composite_compute_dtype(out[0].dtype);
  PF_ASSIGN(LossReduction r, read_loss_reduction(a, kReduction));
  PF_ASSIGN(int64_t ignore_index, a.integer(4));
  PF_ASSIGN(double ls, a.real(7));
  const bool probabilities = is_floating(a.tensor(1).dtype());
  DeviceTensor target = a.tensor(1);
  if (probabilities) {
    PF_ASSIGN(target, as_dtype(b, target, c));
  }
  PF_ASSIGN(ClassOperands o, class_operands(b, a.tensor(0), target, c));
  PF_ASSIGN(DeviceTensor w, operand_in(b, a, 2, c));
  PF_ASSIGN(DeviceTensor logp, op1(b, "log_softmax", {o.input, Arg::make_int(1)}));
  DeviceTensor loss;
  if (probabilities) {
    PF_ASSIGN(loss, cross_entropy_probs(b, logp, o.target, w, r, ls));
  } else {
    PF_ASSIGN(NllParts p, nll_parts(b, logp, o.target, w, ignore_index));
    if (ls > 0) {
      PF_ASSIGN(loss, cross_entropy_smoothed(b, logp, p, w, r, ls));
    } else {
      PF_ASSIGN(loss, reduce_nll(b, p, r));
    }
  }
  return unrow(b, loss, o.squeeze, r, out[0].dtype);
}

}  // namespace

void register_gpu_loss_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"mse_loss", pointwise_loss({2, 3, 4, false}, mse), float_dtypes()});
  r.add(GpuOpInfo{"l1_loss", pointwise_loss({2, 3, 4, false}, l1), float_dtypes()});
  r.add(GpuOpInfo{"smooth_l1_loss", pointwise_loss({2, 3, 4, false}, smooth_l1), float_dtypes()});
  r.add(GpuOpInfo{"huber_loss", pointwise_loss({P::kNoParam, P::kNoParam, 2, false}, huber),
                  float_dtypes()});
  r.add(GpuOpInfo{"kl_div", pointwise_loss({2, 3, 4, true}, kl_div), float_dtypes()});
  r.add(GpuOpInfo{"binary_cross_entropy", run_binary_cross_entropy, float_dtypes()});
  r.add(GpuOpInfo{"binary_cross_entropy_with_logits", run_bce_with_logits, float_dtypes()});
  std::set<DType> class_dtypes = float_dtypes();
  class_dtypes.insert(DType::int64);  // class-index targets
  r.add(GpuOpInfo{"nll_loss", run_nll_loss, class_dtypes});
  r.add(GpuOpInfo{"cross_entropy", run_cross_entropy, class_dtypes});
}

}  // namespace pf::gpu
