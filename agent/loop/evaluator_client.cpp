#include "agent/loop/evaluator_client.h"

#include <spdlog/spdlog.h>

#include "trajectories/result_summary.h"

namespace pf::agent {

nlohmann::json failed_result(traj::EvalMode mode, const std::string& failure_class,
                             const std::string& message, double failure_score) {
  nlohmann::json r = {{"mode", traj::to_string(mode)},
                      {"failure_class", failure_class},
                      {"message", message},
                      {"b", failure_score},
                      {"variants", nlohmann::json::array()}};
  r["as"] = mode == traj::EvalMode::full ? nlohmann::json(failure_score) : nlohmann::json(nullptr);
  return r;
}

sandbox::WorkerReply EvaluatorClient::request(const nlohmann::json& task,
                                              const traj::Workspace& files, traj::EvalMode mode) {
  nlohmann::json options =
      settings_.options.is_object() ? settings_.options : nlohmann::json::object();
  options["arch"] = mode == traj::EvalMode::compile_only && settings_.mode != traj::EvalMode::full
                        ? nlohmann::json(settings_.compile_only_arch)
                        : nlohmann::json(nullptr);
  nlohmann::json body = {{"task", task},
                         {"files", files},
                         {"mode", traj::to_string(mode)},
                         {"options", std::move(options)}};
  return pool_.call(kEvaluateRequest, body, settings_.timeout);
}

EvaluationOutcome EvaluatorClient::evaluate(const nlohmann::json& task,
                                            const traj::Workspace& files, traj::EvalKind kind) {
  traj::EvalMode mode = mode_for(kind);
  const auto start = std::chrono::steady_clock::now();
  sandbox::WorkerReply reply = request(task, files, mode);
  if (mode == traj::EvalMode::full && reply.status == sandbox::ReplyStatus::error &&
      reply.error.code == ErrorCode::unsupported) {
    if (!full_unsupported_.exchange(true)) {
      spdlog::error(
          "the evaluation workers cannot evaluate on the GPU ({}); FALLING BACK TO "
          "COMPILE-ONLY for the rest of this run (each evaluation records its mode)",
          reply.error.message);
    }
    mode = traj::EvalMode::compile_only;
    reply = request(task, files, mode);
  }
  EvaluationOutcome out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  nlohmann::json result;
  switch (reply.status) {
    case sandbox::ReplyStatus::ok:
      result = std::move(reply.body);
      if (!result.is_object()) {
        out.unavailable = "the worker answered with a non-object result";
        return out;
      }
      if (!result.contains("mode")) result["mode"] = traj::to_string(mode);
      break;
    case sandbox::ReplyStatus::timeout:
      result = failed_result(mode, "timeout",
                             "the evaluation did not finish within " +
                                 std::to_string(settings_.timeout.count() / 1000) +
                                 " s; the worker was stopped",
                             settings_.failure_score);
      break;
    case sandbox::ReplyStatus::resource_limit:
      result = failed_result(mode, "resource_limit",
                             "the evaluation hit a worker limit: " + reply.error.message,
                             settings_.failure_score);
      break;
    case sandbox::ReplyStatus::crashed:
      result = failed_result(mode, "runtime_fail", "the worker died: " + reply.describe(),
                             settings_.failure_score);
      break;
    case sandbox::ReplyStatus::error:
    case sandbox::ReplyStatus::protocol_error:
    case sandbox::ReplyStatus::unavailable:
      out.unavailable = reply.describe();
      spdlog::warn("evaluation not done: {}", out.unavailable);
      return out;
  }
  auto record = traj::evaluation_from_result(kind, result);
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
