// Runs an `evaluate` request (worker/pass_handler.h) through a WorkerPool and
// finishes what a crash interrupted (docs/design.md "Evaluation protocol" 7):
//   - a reply that says `fatal` (a sticky CUDA error: that variant is already
//     runtime_fail) is merged and the variants it did not reach are sent
//     again, to the replacement worker;
//   - a worker that crashed or timed out returns nothing: the pending
//     variants are then sent one per request, so the one that kills its
//     worker is classified (runtime_fail / timeout, with the worker's words)
//     and every other is evaluated.
// The merged result is re-scored (result_score.h).
#pragma once

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "common/result.h"
#include "sandbox/pool/worker_pool.h"

namespace pf::protocol {

struct PoolRequest {
  nlohmann::json task;                       // task JSON (docs/tasks.md)
  std::map<std::string, std::string> files;  // the pass workspace
  bool full = true;                          // false: compile_only
  nlohmann::json options = nlohmann::json::object();
  std::chrono::milliseconds timeout{300'000};  // per worker request
};

struct PoolEvaluation {
  nlohmann::json result;
  int requests = 0;  // worker requests sent
  int restarts = 0;  // workers replaced on the way (crash, timeout, poisoned)
};

//! An Error when the request itself is refused (malformed, `unsupported`
//! mode: the error keeps ErrorCode::unsupported) or no worker is available.
Result<PoolEvaluation> evaluate_through_pool(sandbox::WorkerPool& pool, const PoolRequest& request);

}  // namespace pf::protocol
