// The one place GPU baseline ops are found: op name -> how to
// add its work to a plan, plus the dtypes it handles. One dispatch point
// (run) and one question (supports). Ops without an entry that the CPU
// registry marks `is_view` run through the view probe (gpu_views.h): the
// CPU op computes the output geometry and the GPU output aliases the input.
//
// Adding an op family: write ops_<family>.cpp with a
// `void register_gpu_<family>_ops(GpuOpRegistry&)` and add its one call to
// register_all_gpu_ops (gpu_op_registry.cpp). docs/gpu-executor.md has a
// worked example.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/plan_builder.h"
#include "evaluator/ops/bound_args.h"

namespace pf {
class OpRegistry;
}

namespace pf::gpu {

//! Adds the node's work to `plan` and returns its outputs (views of inputs
//! for view ops, fresh tensors otherwise). `out_types` are the inferred types.
using GpuOpFn = std::function<Result<std::vector<DeviceTensor>>(
    const BoundArgs<DeviceTensor>& args, const std::vector<TensorType>& out_types,
    PlanBuilder& plan)>;

//! Optional: refuses argument forms the GPU op does not handle (an
//! `unsupported` error saying which), so supports() answers for the call.
using GpuArgsCheck = std::function<Status(const ArgReader& args)>;

struct GpuOpInfo {
  std::string name;  // the canonical op name (OpRegistry)
  GpuOpFn run;
  //! Every dtype a tensor input or output of the op may have on the GPU.
  std::set<DType> dtypes;
  GpuArgsCheck accepts;  // optional
};

class GpuOpRegistry {
 public:
  //! All built-in GPU ops (built once, then read-only: thread-safe).
  static const GpuOpRegistry& builtin();

  //! Adds or replaces the entry for info.name.
  void add(GpuOpInfo info);
  const GpuOpInfo* find(std::string_view name) const;
  std::vector<std::string> names() const;

  //! ok when the GPU runs `op` with these tensor dtypes (inputs and outputs);
  //! else an `unsupported` error naming the op and the dtype.
  Status supports(std::string_view op, const std::vector<DType>& dtypes) const;
  //! supports() for a typed node: its tensor inputs' and outputs' dtypes,
  //! and the op's argument check.
  Status supports_node(const Graph& graph, const Node& node) const;

  //! The dispatch point: checks supports_node, then runs the op (or the view
  //! probe for CPU view ops). Errors carry the op name.
  Result<std::vector<DeviceTensor>> run(const Graph& graph, const Node& node,
                                        const std::vector<std::vector<DeviceTensor>>& env,
                                        PlanBuilder& plan) const;

 private:
  std::map<std::string, GpuOpInfo, std::less<>> ops_;
};

//! Every dtype.
std::set<DType> all_dtypes();
//! float16, bfloat16, float32, float64.
std::set<DType> float_dtypes();

void register_all_gpu_ops(GpuOpRegistry& r);

}  // namespace pf::gpu
