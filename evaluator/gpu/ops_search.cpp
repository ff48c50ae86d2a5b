// torch.bucketize / torch.searchsorted, torch.isin and torch.angle on the GPU,
// composed of registered GPU ops (no kernel of their own):
// - search: over a sorted row the binary search's answer is the number of
//   entries before the value, counted as sum(!(seq >= x)) (!(seq > x) for
//   right), the predicate of PyTorch's search, so a NaN value lands past the
//   end as there;
// - isin: (elements[..., None] == test_elements.flatten()).any(-1), PyTorch's
//   own default for small test sets;
// - angle: where(isnan(x), x, (x < 0) * pi).
#include <numbers>
#include <vector>

#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/search_shape.h"

namespace pf::gpu {
namespace {

GpuOpFn run_search(size_t seq_i, size_t val_i) {
  return [seq_i, val_i](const GpuArgs& a, const std::vector<TensorType>& out,
                        PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    const DeviceTensor& seq = a.tensor(seq_i);
    const DeviceTensor& val = a.tensor(val_i);
    PF_ASSIGN(SearchParams p, read_search(a, seq_i, val_i, seq.shape(), val.shape()));
    // Values [..., K, 1] against the sequence [M] or [..., 1, M].
    PF_ASSIGN(DeviceTensor v, call_gpu_op1(b, "unsqueeze", {val, Arg::make_int(-1)}));
    DeviceTensor s = seq;
    if (p.batched) {
      PF_ASSIGN(s, call_gpu_op1(b, "unsqueeze", {seq, Arg::make_int(-2)}));
    }
    PF_ASSIGN(DeviceTensor after, call_gpu_op1(b, p.right ? "gt" : "ge", {s, v}));
    PF_ASSIGN(DeviceTensor before, call_gpu_op1(b, "logical_not", {after}));
    PF_ASSIGN(DeviceTensor count, call_gpu_op1(b, "sum", {before, int_list({-1})}));
    PF_ASSIGN(count, as_dtype(b, count, out[0].dtype));
    return std::vector<DeviceTensor>{count};
  };
}

Result<std::vector<DeviceTensor>> run_isin(const GpuArgs& a, const std::vector<TensorType>&,
                                           PlanBuilder& b) {
  PF_ASSIGN(bool invert, a.boolean(3));
  PF_ASSIGN(DeviceTensor x, call_gpu_op1(b, "unsqueeze", {a.tensor(0), Arg::make_int(-1)}));
  CallArg tests = a.arg(1);
  if (a.is_tensor(1)) {
    PF_ASSIGN(DeviceTensor flat, call_gpu_op1(b, "reshape", {a.tensor(1), int_list({-1})}));
    tests = flat;
  }
  PF_ASSIGN(DeviceTensor eq, call_gpu_op1(b, "eq", {x, tests}));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "any", {eq, Arg::make_int(-1)}));
  if (invert) {
    PF_ASSIGN(y, call_gpu_op1(b, "logical_not", {y}));
  }
  return std::vector<DeviceTensor>{y};
}

Result<std::vector<DeviceTensor>> run_angle(const GpuArgs& a, const std::vector<TensorType>& out,
                                            PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor x, as_dtype(b, a.tensor(0), out[0].dtype));
  PF_ASSIGN(DeviceTensor negative, call_gpu_op1(b, "lt", {x, Arg::make_int(0)}));
  PF_ASSIGN(DeviceTensor sign, as_dtype(b, negative, out[0].dtype));
  PF_ASSIGN(DeviceTensor angle, call_gpu_op1(b, "mul", {sign, Arg::make_real(std::numbers::pi)}));
  PF_ASSIGN(DeviceTensor nan, call_gpu_op1(b, "isnan", {x}));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "where", {nan, x, angle}));
  return std::vector<DeviceTensor>{y};
}

}  // namespace

void register_gpu_search_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"bucketize", run_search(1, 0), all_dtypes()});
  r.add(GpuOpInfo{"searchsorted", run_search(0, 1), all_dtypes()});
  r.add(GpuOpInfo{"isin", run_isin, all_dtypes()});
  r.add(GpuOpInfo{"angle", run_angle, all_dtypes()});
}

}  // namespace pf::gpu
