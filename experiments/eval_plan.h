// How a session evaluates: full on the GPUs evaluator.gpus names, or
// compile-only (evaluator.compile_only, or no usable GPU), and the worker
// pool and evaluator settings for it. The same rules as `passforge run`
// (agent/scheduler/run_session.cpp, whose copies are private to it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "agent/loop/evaluator_client.h"
#include "common/result.h"
#include "config/config.h"
#include "sandbox/pool/worker_pool.h"
#include "trajectories/records.h"

namespace pf::experiments {

struct EvaluationPlan {
  traj::EvalMode mode = traj::EvalMode::compile_only;
  std::vector<std::string> devices;  // CUDA ordinals for the GPU workers
  std::string reason;                // why this mode, in words
  std::string gpu_name, driver_version;
};

//! Errors: compile_only = false without a usable GPU, a GPU index out of range.
Result<EvaluationPlan> plan_evaluation(const EvaluatorConfig& evaluator);

Result<std::unique_ptr<sandbox::WorkerPool>> start_worker_pool(const Config& config,
                                                               const EvaluationPlan& plan);

agent::EvaluationSettings evaluation_settings(const Config& config, const EvaluationPlan& plan);

}  // namespace pf::experiments
