// The worker's `evaluate` request: evaluates a pass workspace on a task.
// The request and the checked parts of the reply are typed in
// evaluator/protocol/eval_messages.h (both carry "protocol_version"; a request
// of another version is refused). Request options: "arch" (NVRTC target,
// null: the worker's GPU), "device_limits" (compile-only: the launch limits
// its dry runs check against, cuda/device_limits_json.h; absent: the worker's GPU,
// else sm_90's), "include_rewritten", "max_match_steps", and in
// full mode the [evaluator] keys and protocol details (protocol_options.h);
// "variants" (full only) evaluates just those, the rest come back with
// "evaluated": false.
// Reply body: the compile-only result (docs/result-fields.md, "Compile-only
// evaluation") or the full result (docs/evaluation.md). Everything the
// workspace gets wrong (file layout, Python, CUDA, matching, dry-run, wrong
// outputs, integrity findings) is in the reply; an `error` reply means the
// request itself is malformed, or the worker's own machinery failed (NVRTC,
// the CUDA context, memory): the orchestrator retries those on a fresh worker. "full" on
// a worker without a GPU is an `unsupported` error (callers fall back to
// compile-only). A sticky CUDA error during a full evaluation is reported in
// the reply ("fatal", the variant runtime_fail, the rest "evaluated": false)
// and the worker declares itself poisoned, so the pool replaces it.
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "common/result.h"
#include "evaluator/passes/workspace.h"
#include "sandbox/worker/handler_table.h"
#include "worker/compile_handler.h"

namespace pf::worker {

struct PassServiceOptions {
  passes::WorkspaceLimits limits;
  //! The eager baseline's NVRTC kernel cache (full mode); empty: none.
  std::filesystem::path kernel_cache_dir;
};

//! Answers one `evaluate` request with `compile` (NVRTC, cache, deadline).
Result<nlohmann::json> handle_evaluate(const nlohmann::json& body, CompileService& compile,
                                       const PassServiceOptions& options = {});

//! Registers "evaluate" on `table`.
void register_pass_handler(sandbox::HandlerTable& table, std::shared_ptr<CompileService> compile,
                           PassServiceOptions options = {});

}  // namespace pf::worker
