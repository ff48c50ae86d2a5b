// Builds the eager baseline plan of a typed graph: node by node, each op's
// work added to one PlanBuilder (views add nothing). Nodes the registry does
// not know (a candidate's replacement calls) go to the caller's hook, which
// adds their work to the same builder. Intermediates stay allocated for the
// plan's lifetime.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/gpu/device_tensor.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/plan_builder.h"

namespace pf::gpu {

//! Returns the node's outputs if the hook handles it, nullopt to let the
//! registry run it, or an error.
using NodeHook = std::function<Result<std::optional<std::vector<DeviceTensor>>>(
    const Graph& graph, int node_index, const std::vector<std::vector<DeviceTensor>>& env,
    PlanBuilder& plan)>;

//! The nodes PyTorch eager computes on the CPU, which the plan computes once
//! on the host while it is built: 0-d results of factories without a device
//! (torch.tensor(1.0)) and of ops whose tensor arguments are all such values
//! (a CPU tensor meets CUDA tensors only as a 0-d scalar). Each is uploaded
//! once; elementwise consumers take it as a kernel parameter, as PyTorch
//! takes a CPU scalar; a run launches nothing for it. Views, tuple results
//! and graph outputs stay on the GPU. `graph` must have been through
//! infer_types.
std::vector<bool> host_nodes(const Graph& graph);

//! `graph` must have been through infer_types; `inputs` must match its input
//! types. Returns the graph outputs (views of inputs where the graph returns
//! them). Errors name the node ("line 7, tmp_3 = ...: ...").
Result<std::vector<DeviceTensor>> build_graph_plan(
    const Graph& graph, const std::vector<DeviceTensor>& inputs, PlanBuilder& plan,
    const NodeHook& hook = nullptr, const GpuOpRegistry& registry = GpuOpRegistry::builtin());

//! The ops of `graph` the GPU baseline cannot run (with the dtype problem),
//! one entry per distinct message; empty when it can run them all.
std::vector<std::string> unsupported_ops(const Graph& graph,
                                         const GpuOpRegistry& registry = GpuOpRegistry::builtin());

}  // namespace pf::gpu
