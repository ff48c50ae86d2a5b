// Evaluations for the agent loop: the worker request `evaluate` through the
// shared WorkerPool (sandboxed passforge-worker processes), turned into the
// EvaluationRecord the trajectory store keeps.
//
// What the model did wrong is a result (recorded, reported to the model);
// what the harness could not do (no worker available, malformed reply) is
// `unavailable` (not recorded, not the model's fault). A worker that timed
// out or crashed on the pass is the pass's fault: a result with failure class
// `timeout` / `runtime_fail`.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "sandbox/pool/worker_pool.h"
#include "trajectories/records.h"

namespace pf::agent {

//! The worker request type (worker/pass_handler.h).
inline constexpr const char* kEvaluateRequest = "evaluate";

struct EvaluationSettings {
  //! The run's mode for `evaluate` and `submit`; `compile` is always compile_only.
  traj::EvalMode mode = traj::EvalMode::compile_only;
  std::chrono::milliseconds timeout{300'000};  // evaluator.worker_timeout_s
  //! Sent as the request's "options" (the [evaluator] section).
  nlohmann::json options = nlohmann::json::object();
  double failure_score = 0.1;  // b: the AS of a full evaluation that failed entirely
};

struct EvaluationOutcome {
  bool evaluated = false;       // a result exists and `record` holds it
  traj::EvaluationRecord record;  // kind, mode, summary columns, result, workspace
  std::string unavailable;      // !evaluated: why, in words
  double seconds = 0;           // wall time of the request
};

//! Thread-safe (the pool is).
class EvaluatorClient {
 public:
  EvaluatorClient(sandbox::WorkerPool& pool, EvaluationSettings settings)
      : pool_(pool), settings_(std::move(settings)) {}

  traj::EvalMode mode_for(traj::EvalKind kind) const {
    return kind == traj::EvalKind::compile ? traj::EvalMode::compile_only : settings_.mode;
  }
  const EvaluationSettings& settings() const { return settings_; }

  //! `task` is the task JSON (docs/tasks.md) with the run's hidden flags.
  EvaluationOutcome evaluate(const nlohmann::json& task, const traj::Workspace& files,
                             traj::EvalKind kind);

 private:
  sandbox::WorkerPool& pool_;
  EvaluationSettings settings_;
};

//! A result for a pass that killed its worker (timeout, crash): the failure
//! class, the message, and AS = b in full mode (every variant failed).
nlohmann::json failed_result(traj::EvalMode mode, const std::string& failure_class,
                             const std::string& message, double failure_score);

}  // namespace pf::agent
