// The agent loop's view of the EvaluationService
// (evaluator/protocol/evaluation_service.h): the mode a tool call asks for,
// and the service's result turned into the EvaluationRecord the trajectory
// store keeps. Crash resumption, reply checks, infrastructure retries and the
// compile-only fallback are the service's; docs/evaluation.md describes them.
//
// Modes: `compile` requests are compile_only; `evaluate` and `submit` ask for
// the run's mode (compile-only after the service fell back). The result's
// "mode" (the mode the worker really ran) is what each evaluation records.
// An evaluation that could not run (`unavailable`) is not recorded and not
// the model's fault.
#pragma once

#include <string>

#include "evaluator/protocol/evaluation_service.h"
#include "evaluator/tasks/task.h"
#include "trajectories/records.h"

namespace pf::agent {

struct EvaluationOutcome {
  bool evaluated = false;         // a result exists and `record` holds it
  traj::EvaluationRecord record;  // kind, mode, summary columns, result, workspace
  std::string unavailable;        // !evaluated: why, in words
  double seconds = 0;             // wall time of the evaluation
};

traj::EvalMode to_record_mode(protocol::EvalMode mode);

//! Thread-safe (the service is).
class EvaluatorClient {
 public:
  explicit EvaluatorClient(protocol::EvaluationService& service) : service_(service) {}

  traj::EvalMode mode_for(traj::EvalKind kind) const {
    return kind == traj::EvalKind::compile ? traj::EvalMode::compile_only : mode();
  }
  //! The run's mode for evaluate/submit as it is now (see fell_back()).
  traj::EvalMode mode() const { return to_record_mode(service_.mode()); }
  //! True once the workers answered that they cannot evaluate `full`.
  bool fell_back() const { return service_.fell_back(); }

  //! `task` carries the run's hidden flags.
  EvaluationOutcome evaluate(const Task& task, const traj::Workspace& files, traj::EvalKind kind);

 private:
  protocol::EvaluationService& service_;
};

}  // namespace pf::agent
