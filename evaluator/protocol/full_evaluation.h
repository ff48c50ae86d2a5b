// The full evaluation of a pass workspace on a task (docs/design.md "Evaluation
// protocol" 1-7): the compile-only checks first (load, compile once through
// the cache, launch sites, matching with diagnostics, dry runs), then every
// matched variant on the GPU (gpu_variant.h), hidden ones the same way, then
// the scores (result_score.h). The result JSON extends the compile-only one
// (docs/result-fields.md, docs/evaluation.md) with "mode": "full".
//
// Variant granularity (step 7): `only` restricts the variants run on the GPU
// (the others are reported with "evaluated": false). A sticky CUDA error in a
// variant makes it runtime_fail and stops the evaluation there: the result
// says `fatal` (the worker must then declare itself poisoned) and the client
// re-issues the variants not yet evaluated to a fresh worker
// (evaluation_service.h).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "common/result.h"
#include "evaluator/gpu/gpu_runtime.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/compile_only.h"
#include "evaluator/passes/workspace.h"
#include "evaluator/protocol/protocol_options.h"
#include "evaluator/tasks/task.h"

namespace pf::protocol {

struct FullEvaluation {
  nlohmann::json result;
  //! Non-empty when the CUDA context is lost (a sticky error): the caller's
  //! process must stop using CUDA.
  std::string fatal;
};

//! An Error only when the harness cannot evaluate at all (no timing
//! harness, a variant of the task does not build); everything the workspace
//! gets wrong is in the result. `runtime`'s context must be current.
Result<FullEvaluation> evaluate_full(const Task& task, const passes::PassWorkspace& workspace,
                                     const passes::KernelCompiler& compile,
                                     gpu::GpuRuntime& runtime, const ProtocolOptions& options,
                                     const std::set<std::string>& only = {},
                                     const OpRegistry& registry = OpRegistry::builtin());

//! The full-mode result of a candidate that the compile-only phase alone
//! decides, from that phase's result (`compile_only`, e.g. a CPU worker's
//! reply): a whole failure (nothing compiled) or every variant failed early
//! (pass_miss, dry run). The same fields, classes and scores evaluate_full
//! gives it, without "device" (no GPU took part); `compile_ms` becomes
//! phases_ms.compile_and_match. nullopt when a variant needs the GPU.
std::optional<nlohmann::json> full_result_without_gpu(nlohmann::json compile_only,
                                                      ProtocolOptions options, double compile_ms);

//! The compile-only options a protocol run uses for its first phase.
passes::CompileOnlyOptions compile_only_options(const ProtocolOptions& options);

}  // namespace pf::protocol
