// F.lp_pool1d / F.lp_pool2d and F.local_response_norm on the GPU: PyTorch
// 1.13's Python compositions (pow, avg_pool, sign, relu, abs, mul; mul, pad,
// avg_pool, pow, div) of registered GPU ops, no kernel of their own. Half
// inputs compute in float32 and round once, as the float64 CPU reference.
#include <string>
#include <vector>

#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/lp_pool_lrn.h"

namespace pf::gpu {
namespace {

// (sign(avg) * relu(|avg|) * window)^(1 / p), avg = avg_pool(x^p) (F.lp_pool<n>d).
GpuOpFn run_lp_pool(int nd) {
  return [nd](const GpuArgs& a, const std::vector<TensorType>& out,
              PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    PF_ASSIGN(LpPoolParams p, read_lp_pool(a, nd));
    PF_ASSIGN(DeviceTensor x, as_dtype(b, a.tensor(0), composite_compute_dtype(out[0].dtype)));
    PF_ASSIGN(DeviceTensor powered, call_gpu_op1(b, "pow", {x, Arg::make_real(p.norm_type)}));
    PF_ASSIGN(DeviceTensor avg, call_gpu_op1(b, p.avg_pool,
                                             {powered, p.kernel, p.stride, Arg::make_int(0),
                                              Arg::make_bool(p.ceil_mode)}));
    PF_ASSIGN(DeviceTensor sign, call_gpu_op1(b, "sign", {avg}));
    PF_ASSIGN(DeviceTensor magnitude, call_gpu_op1(b, "abs", {avg}));
    PF_ASSIGN(magnitude, call_gpu_op1(b, "relu", {magnitude}));
    PF_ASSIGN(DeviceTensor sum, call_gpu_op1(b, "mul", {sign, magnitude}));
    PF_ASSIGN(sum, call_gpu_op1(b, "mul", {sum, Arg::make_int(p.window)}));
    PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "pow", {sum, Arg::make_real(1.0 / p.norm_type)}));
    PF_ASSIGN(y, as_dtype(b, y, out[0].dtype));
    return std::vector<DeviceTensor>{y};
  };
}

// x / (k + alpha * avg_pool(pad(x^2 viewed [N, 1, C, ...])))^beta (F.local_response_norm).
Result<std::vector<DeviceTensor>> run_local_response_norm(const GpuArgs& a,
                                                          const std::vector<TensorType>& out,
                                                          PlanBuilder& b) {
  PF_ASSIGN(LrnParams p, read_lrn(a, a.tensor(0).shape()));
  PF_ASSIGN(DeviceTensor x, as_dtype(b, a.tensor(0), composite_compute_dtype(out[0].dtype)));
  PF_ASSIGN(DeviceTensor sq, call_gpu_op1(b, "mul", {x, x}));
  PF_ASSIGN(DeviceTensor div, call_gpu_op1(b, "reshape", {sq, p.pooled_view}));
  PF_ASSIGN(div, call_gpu_op1(b, "pad", {div, p.pad}));
  PF_ASSIGN(div, call_gpu_op1(b, p.avg_pool, {div, p.window, Arg::make_int(1)}));
  PF_ASSIGN(div, call_gpu_op1(b, "reshape", {div, p.input_shape}));
  PF_ASSIGN(div, call_gpu_op1(b, "mul", {div, Arg::make_real(p.alpha)}));
  PF_ASSIGN(div, call_gpu_op1(b, "add", {div, Arg::make_real(p.k)}));
  PF_ASSIGN(div, call_gpu_op1(b, "pow", {div, Arg::make_real(p.beta)}));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "div", {x, div}));
  PF_ASSIGN(y, as_dtype(b, y, out[0].dtype));
  return std::vector<DeviceTensor>{y};
}

}  // namespace

void register_gpu_lp_pool_lrn_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"lp_pool1d", run_lp_pool(1), float_dtypes()});
  r.add(GpuOpInfo{"lp_pool2d", run_lp_pool(2), float_dtypes()});
  r.add(GpuOpInfo{"local_response_norm", run_local_response_norm, float_dtypes()});
}

}  // namespace pf::gpu
