// The worker's `evaluate` request: evaluates a pass workspace on a task.
// Request body:
//   {"task": <task JSON, docs/tasks.md>,
//    "files": {"passes/X.py": "...", "kernels/k.cu": "...", ...},
//    "mode": "compile_only",
//    "options": {"arch": "sm_90" | null, "include_rewritten": true, "max_match_steps": 2000000}}
// Reply body: the compile-only result (docs/result-fields.md, "Compile-only
// evaluation"). Everything the workspace gets wrong (file layout, Python,
// CUDA, matching, dry-run) is in the reply; an `error` reply means the
// request itself is malformed or the worker cannot compile at all.
// Only "compile_only" exists so far; the full protocol adds "full" here.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>

#include "common/result.h"
#include "evaluator/passes/workspace.h"
#include "sandbox/worker/handler_table.h"
#include "worker/compile_handler.h"

namespace pf::worker {

struct PassServiceOptions {
  passes::WorkspaceLimits limits;
};

//! Answers one `evaluate` request with `compile` (NVRTC, cache, deadline).
Result<nlohmann::json> handle_evaluate(const nlohmann::json& body, CompileService& compile,
                                       const PassServiceOptions& options = {});

//! Registers "evaluate" on `table`.
void register_pass_handler(sandbox::HandlerTable& table, std::shared_ptr<CompileService> compile,
                           PassServiceOptions options = {});

}  // namespace pf::worker
