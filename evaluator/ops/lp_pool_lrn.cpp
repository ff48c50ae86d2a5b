// F.lp_pool1d / F.lp_pool2d and F.local_response_norm: PyTorch 1.13 writes
// them in Python as compositions of pow, avg_pool, pad, sign, relu, abs, mul;
// the reference runs the same composition through the CPU ops in float64 and
// rounds once to the input's dtype (the shape rules are the parts' rules).
#include "evaluator/ops/lp_pool_lrn.h"

#include <string>
#include <vector>

#include "evaluator/ops/cpu_op_call.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

Status expect_floating_input(const ArgReader& a, DType t) {
  if (is_floating(t)) return ok_status();
  return a.error(0, std::string("expected a floating tensor, got ") + dtype_name(t));
}

// F.lp_pool<nd>d(input, norm_type, kernel_size, stride=None, ceil_mode=False).
OpInfo lp_pool_op(int nd) {
  OpInfo op;
  op.name = "lp_pool" + std::to_string(nd) + "d";
  op.aliases = {"torch.nn.functional." + op.name};
  op.params = {tensor_param("input"), param("norm_type", ParamKind::real),
               param("kernel_size", ParamKind::int_list),
               param("stride", ParamKind::optional_int_list, Arg::make_none()),
               param("ceil_mode", ParamKind::boolean, Arg::make_bool(false))};
  op.doc = "(sum over each window of x^p)^(1/p): avg_pool of x^p times the window size";
  op.infer = [nd](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    PF_TRY(expect_floating_input(a, x.dtype));
    PF_ASSIGN(LpPoolParams p, read_lp_pool(a, nd));
    PF_ASSIGN(TensorType y, infer_op1(p.avg_pool, {x, p.kernel, p.stride, Arg::make_int(0),
                                                   Arg::make_bool(p.ceil_mode)}));
    return std::vector<TensorType>{y};
  };
  op.cpu = [nd](const BoundArgs<Tensor>& a,
                const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(LpPoolParams p, read_lp_pool(a, nd));
    const Tensor x = a.tensor(0).to_dtype(DType::float64);
    PF_ASSIGN(Tensor powered, call_cpu_op1("pow", {x, Arg::make_real(p.norm_type)}));
    PF_ASSIGN(Tensor avg, call_cpu_op1(p.avg_pool, {powered, p.kernel, p.stride, Arg::make_int(0),
                                                    Arg::make_bool(p.ceil_mode)}));
    PF_ASSIGN(Tensor sign, call_cpu_op1("sign", {avg}));
    PF_ASSIGN(Tensor magnitude, call_cpu_op1("abs", {avg}));
    PF_ASSIGN(magnitude, call_cpu_op1("relu", {magnitude}));
    PF_ASSIGN(Tensor sum, call_cpu_op1("mul", {sign, magnitude}));
    PF_ASSIGN(sum, call_cpu_op1("mul", {sum, Arg::make_int(p.window)}));
    PF_ASSIGN(Tensor y, call_cpu_op1("pow", {sum, Arg::make_real(1.0 / p.norm_type)}));
    return std::vector<Tensor>{y.to_dtype(out[0].dtype)};
  };
  return op;
}

// F.local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0): x over
// (k + alpha * mean of x^2 over `size` neighbouring channels, zero-padded)^beta.
OpInfo local_response_norm_op() {
  OpInfo op;
  op.name = "local_response_norm";
  op.aliases = {"torch.nn.functional.local_response_norm"};
  op.params = {tensor_param("input"), param("size", ParamKind::integer),
               param("alpha", ParamKind::real, Arg::make_real(1e-4)),
               param("beta", ParamKind::real, Arg::make_real(0.75)),
               param("k", ParamKind::real, Arg::make_real(1.0))};
  op.doc = "x / (k + alpha * avg over size channels of x^2)^beta";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    PF_TRY(expect_floating_input(a, x.dtype));
    PF_TRY(read_lrn(a, x.shape));
    return std::vector<TensorType>{x};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor x = a.tensor(0).to_dtype(DType::float64);
    PF_ASSIGN(LrnParams p, read_lrn(a, x.shape()));
    PF_ASSIGN(Tensor sq, call_cpu_op1("mul", {x, x}));
    PF_ASSIGN(Tensor div, call_cpu_op1("reshape", {sq, p.pooled_view}));
    PF_ASSIGN(div, call_cpu_op1("pad", {div, p.pad}));
    PF_ASSIGN(div, call_cpu_op1(p.avg_pool, {div, p.window, Arg::make_int(1)}));
    PF_ASSIGN(div, call_cpu_op1("reshape", {div, p.input_shape}));
    PF_ASSIGN(div, call_cpu_op1("mul", {div, Arg::make_real(p.alpha)}));
    PF_ASSIGN(div, call_cpu_op1("add", {div, Arg::make_real(p.k)}));
    PF_ASSIGN(div, call_cpu_op1("pow", {div, Arg::make_real(p.beta)}));
    PF_ASSIGN(Tensor y, call_cpu_op1("div", {x, div}));
    return std::vector<Tensor>{y.to_dtype(out[0].dtype)};
  };
  return op;
}

}  // namespace

void register_lp_pool_lrn_ops(OpRegistry& r) {
  r.add(lp_pool_op(1));
  r.add(lp_pool_op(2));
  r.add(local_response_norm_op());
}

}  // namespace pf
