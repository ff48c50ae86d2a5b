#include "evaluator/protocol/evaluation_service.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "evaluator/protocol/full_evaluation.h"
#include "evaluator/protocol/protocol_options.h"
#include "evaluator/protocol/reply_checks.h"
#include "evaluator/protocol/result_score.h"
#include "evaluator/protocol/variant_resume.h"

namespace pf::protocol {

using nlohmann::json;

struct EvaluationService::Attempt {
  bool answered = false;  // false: the worker died, timed out or spoke garbage on it
  EvalReply reply;
  sandbox::WorkerReply killed;
};

namespace {

// An `error` reply names what went wrong with the request (this side built it
// wrong: not worth retrying) or asks for the compile-only fallback; every
// other error is the worker's machinery failing (NVRTC, the CUDA context,
// memory), which a fresh worker may not repeat.
bool is_infrastructure(const Error& e) {
  switch (e.code) {
    case ErrorCode::invalid_argument:
    case ErrorCode::parse_error:
    case ErrorCode::not_found:
    case ErrorCode::unsupported:
      return false;
    default:
      return true;
  }
}

}  // namespace

json ServiceStats::to_json() const {
  return {{"evaluations", evaluations},     {"unavailable", unavailable},
          {"requests", requests},           {"restarts", restarts},
          {"infra_retries", infra_retries}, {"worker_faults", worker_faults},
          {"precompiled", precompiled},     {"kept_off_gpu", kept_off_gpu}};
}

Result<std::unique_ptr<EvaluationService>> EvaluationService::start(ServiceOptions options) {
  if (!options.options.is_object()) options.options = json::object();
  auto protocol = options_from_json(options.options);
  if (!protocol.ok()) return protocol.error().with_context("evaluation options");
  options.pool.gpu_devices = options.plan.devices;
  auto pool = sandbox::WorkerPool::start(options.pool);
  if (!pool.ok()) return pool.error().with_context("starting the evaluation workers");
  std::unique_ptr<sandbox::WorkerPool> cpu_pool;
  if (options.cpu_precompile && options.plan.mode == EvalMode::full) {
    // Without the GPU's arch the CPU workers' cubins would not be the ones
    // the GPU workers look up; without a cache they could not hand them over.
    if (options.plan.gpu_arch.empty() || options.pool.cache_dir.empty()) {
      spdlog::info("evaluator.cpu_precompile is off for this run: {}",
                   options.plan.gpu_arch.empty() ? "the GPU's architecture is unknown"
                                                 : "there is no NVRTC cache to share");
    } else {
      sandbox::WorkerPoolOptions cpu = options.pool;
      cpu.gpu_devices.clear();
      cpu.cpu_workers = std::max(1, options.precompile_workers);
      cpu.work_dir.clear();  // a private one: the slots' scratch folders must not collide
      auto started = sandbox::WorkerPool::start(std::move(cpu));
      if (!started.ok()) return started.error().with_context("starting the precompile workers");
      cpu_pool = std::move(started).value();
    }
  }
  return std::unique_ptr<EvaluationService>(
      new EvaluationService(std::move(options), std::move(pool).value(), std::move(cpu_pool),
                            std::make_unique<const ProtocolOptions>(std::move(protocol).value())));
}

EvaluationService::EvaluationService(ServiceOptions options,
                                     std::unique_ptr<sandbox::WorkerPool> pool,
                                     std::unique_ptr<sandbox::WorkerPool> cpu_pool,
                                     std::unique_ptr<const ProtocolOptions> protocol)
    : options_(std::move(options)),
      protocol_(std::move(protocol)),
      pool_(std::move(pool)),
      cpu_pool_(std::move(cpu_pool)) {}

EvaluationService::~EvaluationService() = default;

ServiceStats EvaluationService::stats() const {
  ServiceStats s;
  s.evaluations = evaluations_;
  s.unavailable = unavailable_;
  s.requests = requests_;
  s.restarts = restarts_;
  s.infra_retries = infra_retries_;
  s.worker_faults = worker_faults_;
  s.precompiled = precompiled_;
  s.kept_off_gpu = kept_off_gpu_;
  return s;
}

void EvaluationService::count(const Evaluation& e, bool evaluated) {
  (evaluated ? evaluations_ : unavailable_) += 1;
  requests_ += static_cast<uint64_t>(e.requests);
  restarts_ += static_cast<uint64_t>(e.restarts);
  infra_retries_ += static_cast<uint64_t>(e.infra_retries);
  worker_faults_ += static_cast<uint64_t>(e.worker_faults);
}

EvalRequest EvaluationService::request(const Task& task,
                                       const std::map<std::string, std::string>& files,
                                       EvalMode mode) const {
  EvalRequest r{task, files, mode, options_.options, std::nullopt};
  // A GPU worker compiles for its own GPU; CPU workers for the configured arch.
  r.options["arch"] = mode == EvalMode::compile_only && options_.plan.mode != EvalMode::full
                          ? json(options_.compile_only_arch)
                          : json(nullptr);
  return r;
}

Result<EvaluationService::Attempt> EvaluationService::call(sandbox::WorkerPool& pool,
                                                           const EvalRequest& request,
                                                           Evaluation& out) {
  const json body = to_json(request);
  int faults = 0, infra = 0;
  for (;;) {
    ++out.requests;
    Attempt attempt;
    std::string fault;
    auto judge = [&](const sandbox::WorkerReply& r) -> std::string {
      if (r.status == sandbox::ReplyStatus::error) {
        return is_infrastructure(r.error) ? "infrastructure failure: " + r.error.message : "";
      }
      auto parsed = parse_eval_reply(r.body);
      Status checked =
          parsed.ok() ? check_reply(request, *parsed, *protocol_) : Status(parsed.error());
      if (!checked.ok()) {
        fault = checked.error().message;
        return "worker fault: " + fault;
      }
      attempt.reply = std::move(parsed).value();
      return "";
    };
    sandbox::WorkerReply reply =
        pool.call(kEvaluateRequestType, body, sandbox::deadline_in(options_.timeout), judge);
    out.restarts += reply.worker_replaced ? 1 : 0;
    switch (reply.status) {
      case sandbox::ReplyStatus::ok:
        if (fault.empty()) {
          attempt.answered = true;
          return attempt;
        }
        ++out.worker_faults;
        spdlog::error("evaluation worker fault (worker {}; replaced, nothing kept): {}",
                      reply.worker_pid, fault);
        if (++faults > 1) {
          return make_error(ErrorCode::unavailable,
                            "two workers in a row answered with replies that fail the "
                            "orchestrator's checks (" +
                                fault + ")");
        }
        continue;
      case sandbox::ReplyStatus::error:
        if (!is_infrastructure(reply.error)) return reply.error;
        spdlog::warn("evaluation infrastructure failure in worker {} (replaced): {}",
                     reply.worker_pid, reply.error.message);
        if (infra >= options_.max_infra_retries) {
          return make_error(ErrorCode::unavailable,
                            "the evaluation workers failed " + std::to_string(infra + 1) +
                                " times in a row on their own machinery, not on the pass (" +
                                reply.error.message + ")");
        }
        ++infra;
        ++out.infra_retries;
        continue;
      case sandbox::ReplyStatus::unavailable:
        return reply.error.with_context("evaluate");
      case sandbox::ReplyStatus::timeout:
      case sandbox::ReplyStatus::resource_limit:
      case sandbox::ReplyStatus::crashed:
      case sandbox::ReplyStatus::protocol_error:
        attempt.killed = std::move(reply);
        return attempt;
    }
  }
}

Result<json> EvaluationService::run_compile_only(const EvalRequest& request, Evaluation& out) {
  PF_ASSIGN(Attempt attempt, call(*pool_, request, out));
  if (!attempt.answered) return killed_compile_only_result(attempt.killed);
  return std::move(attempt.reply.body);
}

std::optional<json> EvaluationService::precompile(const EvalRequest& full, Evaluation& out) {
  EvalRequest pre = full;
  pre.mode = EvalMode::compile_only;
  pre.variants = std::nullopt;
  pre.options["arch"] = options_.plan.gpu_arch;
  if (!options_.plan.gpu_limits.is_null()) pre.options["device_limits"] = options_.plan.gpu_limits;
  const auto t0 = std::chrono::steady_clock::now();
  auto attempt = call(*cpu_pool_, pre, out);
  if (!attempt.ok() || !attempt->answered) {
    spdlog::debug("precompile not finished ({}); the GPU worker decides",
                  attempt.ok() ? attempt->killed.describe() : attempt.error().message);
    return std::nullopt;
  }
  out.precompiled = true;
  ++precompiled_;
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  auto decided = full_result_without_gpu(std::move(attempt->reply.body), *protocol_, ms);
  if (decided) ++kept_off_gpu_;
  return decided;
}

Result<json> EvaluationService::run_full(EvalRequest request, Evaluation& out) {
  if (cpu_pool_) {
    if (auto decided = precompile(request, out)) return std::move(*decided);
  }
  out.gpu = true;
  std::vector<std::string> order;
  for (const auto& v : request.task.variants) order.push_back(v.name);
  std::vector<std::string> todo = order;
  bool one_at_a_time = false;
  json merged = nullptr;
  // Each round evaluates at least one variant or classifies one.
  for (size_t round = 0; round <= order.size() + 1 && (merged.is_null() || !todo.empty());
       ++round) {
    std::vector<std::string> batch = todo;
    if (one_at_a_time && batch.size() > 1) batch.resize(1);
    request.variants = batch.size() == order.size()
                           ? std::nullopt
                           : std::optional<std::vector<std::string>>(batch);
    PF_ASSIGN(Attempt attempt, call(*pool_, request, out));
    if (!attempt.answered) {
      if (batch.size() == 1) {
        if (merged.is_null()) {
          merged = {{field::kMode, eval_mode_name(EvalMode::full)},
                    {field::kVariants, json::array()}};
        }
        mark_killed(merged, request.task, batch.front(), attempt.killed);
        todo.erase(std::find(todo.begin(), todo.end(), batch.front()));
      }
      one_at_a_time = true;
      continue;
    }
    json& body = attempt.reply.body;
    // Variants re-sent to a fresh worker use the input seed the first reply
    // drew, so the merged result describes one set of inputs.
    if (!request.options.contains("seed") && body.contains("options") &&
        body["options"].is_object() && body["options"].value("seed", json()).is_number_integer()) {
      request.options["seed"] = body["options"]["seed"];
    }
    if (merged.is_null() || !merged.contains("compile")) {
      json killed = std::move(merged);
      merged = std::move(body);
      if (!killed.is_null()) merge_evaluated(merged, killed);
    } else {
      merge_evaluated(merged, body);
    }
    if (merged.contains(field::kFailureClass) && merged[field::kFailureClass].is_string()) break;
    todo = pending_variants(merged, order);
  }
  if (merged.contains(field::kFatal)) {
    merged["fatal_recovered"] = merged[field::kFatal];
    merged.erase(field::kFatal);
  }
  score_result(merged, *protocol_);
  return merged;
}

Result<Evaluation> EvaluationService::evaluate(const Task& task,
                                               const std::map<std::string, std::string>& files,
                                               EvalMode mode) {
  const auto start = std::chrono::steady_clock::now();
  Evaluation out;
  if (mode == EvalMode::full && full_unsupported_) mode = EvalMode::compile_only;
  Result<json> result = mode == EvalMode::full ? run_full(request(task, files, mode), out)
                                               : run_compile_only(request(task, files, mode), out);
  if (!result.ok() && result.error().code == ErrorCode::unsupported && mode == EvalMode::full) {
    if (!full_unsupported_.exchange(true)) {
      spdlog::error(
          "the evaluation workers cannot evaluate on the GPU ({}); FALLING BACK TO "
          "COMPILE-ONLY for the rest of this run (each evaluation records its mode)",
          result.error().message);
    }
    mode = EvalMode::compile_only;
    result = run_compile_only(request(task, files, mode), out);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.ok()) {
    count(out, false);
    spdlog::warn("evaluation not done: {}", result.error().message);
    return result.error();
  }
  out.mode = mode;
  out.result = std::move(result).value();
  out.result["worker_requests"] = out.requests;
  out.result["worker_restarts"] = out.restarts;
  out.result["infra_retries"] = out.infra_retries;
  out.result["worker_faults"] = out.worker_faults;
  count(out, true);
  return out;
}

}  // namespace pf::protocol
