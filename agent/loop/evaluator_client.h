// Evaluations for the agent loop: the worker request `evaluate` through the
// shared WorkerPool (sandboxed passforge-worker processes), turned into the
// EvaluationRecord the trajectory store keeps.
//
// What the model did wrong is a result (recorded, reported to the model);
// what the harness could not do (no worker available, malformed reply) is
// `unavailable` (not recorded, not the model's fault). A worker that timed
// out or crashed on the pass is the pass's fault: a result with failure class
// `timeout` / `runtime_fail`.
//
// Modes: `compile` requests are compile_only; `evaluate` and `submit` ask for
// the run's mode. The request carries the whole [evaluator] section as
// "options", so a worker's evaluation mode reads its settings from there. A
// worker that cannot evaluate `full` (no GPU, an older worker) answers with
// an `error` reply of code `unsupported`: the client then falls back to
// compile_only for the rest of the run, once and loudly. The result's "mode"
// (the mode the worker really ran) is what each evaluation records.
#pragma once

#include <atomic>
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
  //! Sent as the request's "options" (the [evaluator] section; "arch" is the
  //! NVRTC target for compile-only requests, null lets a GPU worker decide).
  nlohmann::json options = nlohmann::json::object();
  std::string compile_only_arch = "sm_90";  // evaluator.gpu_arch
  double failure_score = 0.1;               // b: the AS of a full evaluation that failed entirely
};

struct EvaluationOutcome {
  bool evaluated = false;         // a result exists and `record` holds it
  traj::EvaluationRecord record;  // kind, mode, summary columns, result, workspace
  std::string unavailable;        // !evaluated: why, in words
  double seconds = 0;             // wall time of the request
};

//! Thread-safe (the pool is).
class EvaluatorClient {
 public:
  EvaluatorClient(sandbox::WorkerPool& pool, EvaluationSettings settings)
      : pool_(pool), settings_(std::move(settings)) {}

  traj::EvalMode mode_for(traj::EvalKind kind) const {
    return kind == traj::EvalKind::compile || full_unsupported_ ? traj::EvalMode::compile_only
                                                                : settings_.mode;
  }
  //! The run's mode for evaluate/submit as it is now (see fell_back()).
  traj::EvalMode mode() const { return mode_for(traj::EvalKind::evaluate); }
  //! True once the workers answered that they cannot evaluate `full`: every
  //! later request is compile-only (logged once, loudly; each evaluation
  //! records the mode it really ran in).
  bool fell_back() const { return full_unsupported_; }
  const EvaluationSettings& settings() const { return settings_; }

  //! `task` is the task JSON (docs/tasks.md) with the run's hidden flags.
  EvaluationOutcome evaluate(const nlohmann::json& task, const traj::Workspace& files,
                             traj::EvalKind kind);

 private:
  sandbox::WorkerReply request(const nlohmann::json& task, const traj::Workspace& files,
                               traj::EvalMode mode);

  sandbox::WorkerPool& pool_;
  EvaluationSettings settings_;
  std::atomic<bool> full_unsupported_{false};
};

//! A result for a pass that killed its worker (timeout, crash): the failure
//! class, the message, and AS = b in full mode (every variant failed).
nlohmann::json failed_result(traj::EvalMode mode, const std::string& failure_class,
                             const std::string& message, double failure_score);

}  // namespace pf::agent
