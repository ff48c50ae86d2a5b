#include "agent/loop/evaluator_client.h"

#include <spdlog/spdlog.h>

#include <chrono>

#include "trajectories/result_summary.h"

namespace pf::agent {

traj::EvalMode to_record_mode(protocol::EvalMode mode) {
  return mode == protocol::EvalMode::full ? traj::EvalMode::full : traj::EvalMode::compile_only;
}

EvaluationOutcome EvaluatorClient::evaluate(const Task& task, const traj::Workspace& files,
                                            traj::EvalKind kind) {
  const protocol::EvalMode asked = mode_for(kind) == traj::EvalMode::full
                                       ? protocol::EvalMode::full
                                       : protocol::EvalMode::compile_only;
  EvaluationOutcome out;
  const auto start = std::chrono::steady_clock::now();
  auto evaluated = service_.evaluate(task, files, asked);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!evaluated.ok()) {
    out.unavailable = evaluated.error().message;
    return out;
  }
  auto record = traj::evaluation_from_result(kind, evaluated->result);
  if (!record.ok()) {
    out.unavailable = "malformed evaluation result: " + record.error().message;
    spdlog::error("{}", out.unavailable);
    return out;
  }
  out.record = std::move(record).value();
  out.record.workspace = files;
  out.evaluated = true;
  return out;
}

}  // namespace pf::agent
