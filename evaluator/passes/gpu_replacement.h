// The GPU half of replacement calls: a NodeHook for gpu::build_graph_plan
// that runs each replacement-call node of a rewritten graph through the
// interpreter with real device tensors. Allocations come from the
// PlanBuilder (so candidate outputs and scratch are poisoned and guarded as
// its options say; torch.zeros adds a memset step), launches become plan
// steps with marshalled arguments (tensors as data pointers of their views),
// validated against the device and the kernel's own limits. Outputs are
// checked against the types of the values the match replaced.
//
// The protocol (baseline vs candidate plans, timing, scoring) is built on
// top: build the candidate plan with `hook()` on the rewritten graph.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/gpu/graph_plan.h"
#include "evaluator/passes/interpreter.h"
#include "evaluator/passes/loaded_pass.h"
#include "sandbox/cuda/cuda_module.h"
#include "sandbox/nvrtc/nvrtc_compiler.h"

namespace pf::passes {

class GpuReplacements {
 public:
  //! Loads every compiled file's module; the driver's context must be
  //! current. `compiled` must be an ok outcome for the device's arch.
  static Result<std::unique_ptr<GpuReplacements>> create(
      std::vector<LoadedPass> passes, const nvrtc::CompileOutcome& compiled,
      std::shared_ptr<const cuda::CudaDriver> driver, InterpreterLimits limits = {});

  //! Handles replacement-call nodes (and tuple_get of their outputs); leaves
  //! every other node to the baseline registry. The hook refers to this
  //! object, which must outlive plan building.
  gpu::NodeHook hook();

  //! The failure class of the last replacement call that failed (runtime_fail,
  //! shape_mismatch, dtype_mismatch), for the protocol's classification.
  FailureClass last_failure() const { return last_failure_; }

 private:
  GpuReplacements() = default;
  Result<std::optional<std::vector<gpu::DeviceTensor>>> run_node(
      const Graph& graph, int node, const std::vector<std::vector<gpu::DeviceTensor>>& env,
      gpu::PlanBuilder& plan);

  std::vector<LoadedPass> passes_;
  KernelTable kernels_;
  InterpreterLimits limits_;
  std::vector<std::unique_ptr<cuda::CudaModule>> modules_;
  std::map<std::string, cuda::CudaFunction> functions_;
  std::map<std::string, cuda::FunctionLimits> function_limits_;
  FailureClass last_failure_ = FailureClass::none;
};

}  // namespace pf::passes
