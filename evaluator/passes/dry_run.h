// The dry run: every replacement call of a rewritten variant interpreted on
// the variant's concrete shapes without a GPU. Metadata, allocations, launch
// configurations and argument lists are evaluated and checked exactly as on
// the GPU (kernel names, argument count/size/kind against the cubin layout,
// grid/block/smem against the device and kernel limits, returned types), so
// shape errors, bad grids and arity errors reach the model from `compile`.
//
// Geometry: graph inputs and computed values are contiguous; outputs of view
// ops (is_view, getitem with plain indices) get the view's strides, as on the
// GPU. Ops that only sometimes alias (reshape, to, contiguous) are taken as
// contiguous, which the GPU baseline may not do; stride-dependent replacement
// code can therefore differ on the device in those rare cases.
#pragma once

#include <string>
#include <vector>

#include "evaluator/core/ir.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/interpreter.h"
#include "evaluator/passes/loaded_pass.h"

namespace pf::passes {

//! Launch limits of an sm_90 GPU (H100/H200), for compile-only machines.
cuda::DeviceLimits sm90_device_limits();

//! What the kernel allows, estimated from the cubin: the block size its
//! register use permits (65536 registers per block, allocated per warp in
//! units of 256) and its static shared memory.
cuda::FunctionLimits estimated_function_limits(const cuda::KernelInfo& kernel);

struct DryRunOptions {
  cuda::DeviceLimits device = sm90_device_limits();
  InterpreterLimits limits;
};

struct CallDryRun {
  int node = -1;  // the call node in the rewritten graph
  std::string pass;
  FailureClass failure = FailureClass::none;
  std::string error;  // "passes/X.py:12:5: ..." when failure != none
  std::vector<LaunchRecord> launches;
  bool ok() const { return failure == FailureClass::none; }
};

//! One entry per replacement call, in program order. `graph` is the typed
//! rewritten graph; `passes` the workspace's passes.
std::vector<CallDryRun> dry_run(const Graph& graph, const std::vector<LoadedPass>& passes,
                                const KernelTable& kernels, const OpRegistry& registry,
                                const DryRunOptions& options = {});

}  // namespace pf::passes
