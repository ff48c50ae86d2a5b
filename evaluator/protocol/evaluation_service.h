// The one way passforge evaluates a pass: `passforge eval`, agent episodes
// (agent/loop/evaluator_client.h adapts it) and experiments all go through an
// EvaluationService. It owns the sandboxed worker pool started from an
// EvaluationPlan and, for every evaluation:
//   - sends a typed, versioned request (eval_messages.h);
//   - checks every reply (reply_checks.h) and keeps the orchestrator's own
//     scores; a reply that fails a check is a worker fault: logged, the
//     worker replaced, the request retried once, never returned as a result;
//   - retries infrastructure failures on a fresh worker, at most
//     `max_infra_retries` times: an `error` reply that is not about the
//     request itself (NVRTC internal errors such as
//     NVRTC_ERROR_BUILTIN_OPERATION_FAILURE or a missing libnvrtc-builtins,
//     the compiler out of memory, a lost CUDA context outside a candidate's
//     run, the worker out of memory in its own allocations);
//   - resumes a full evaluation that a worker crash or timeout interrupted,
//     per variant: a `fatal` reply (sticky CUDA error, that variant is
//     runtime_fail) is merged and the variants it did not reach are re-sent;
//     after a crash the pending variants go one per request, so the variant
//     that kills its worker is classified (runtime_fail / timeout with the
//     worker's words) and every other one is evaluated. A compile-only
//     request that kills its worker is a whole failure (runtime_fail /
//     timeout), as it is the pass's doing;
//   - falls back to compile-only for the rest of its life, once and loudly,
//     when the workers answer that they cannot run `full`.
// What the pass did wrong is a result; what the harness could not do is an
// ErrorCode::unavailable error: nothing ran, nothing is stored, and the
// model is not charged for it.
//
// Thread-safety: evaluate(), mode(), fell_back() and stats() may be called
// from any number of threads at once (the pool serialises worker use).
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/result.h"
#include "evaluator/protocol/eval_messages.h"
#include "evaluator/protocol/evaluation_plan.h"
#include "sandbox/pool/worker_pool.h"

namespace pf::protocol {

struct ProtocolOptions;  // protocol_options.h (kept out: see evaluation_plan.h)

struct ServiceOptions {
  EvaluationPlan plan;
  //! The pool; gpu_devices are the plan's (start() sets them).
  sandbox::WorkerPoolOptions pool;
  std::chrono::milliseconds timeout{300'000};  // per worker request
  //! Sent as every request's "options" ([evaluator] section, protocol details).
  nlohmann::json options = nlohmann::json::object();
  //! NVRTC target of compile-only requests when the plan has no GPU.
  std::string compile_only_arch = "sm_90";
  int max_infra_retries = 2;  // fresh-worker retries of one infrastructure failure
};

//! The [evaluator] limits every worker runs under (docs/evaluation.md "Worker
//! limits"). (service_options.cpp)
sandbox::WorkerLimits worker_limits(const EvaluatorConfig& evaluator);

//! From the configuration: the [evaluator] section as request options, the
//! worker limits,
//! worker_timeout_s, gpu_arch, the NVRTC cache, and in compile-only mode
//! min(run.concurrency, cores) CPU workers. (service_options.cpp)
ServiceOptions service_options(const Config& config, const EvaluationPlan& plan);

struct Evaluation {
  nlohmann::json result;                   // checked; task-level scores are the orchestrator's
  EvalMode mode = EvalMode::compile_only;  // what the workers really ran
  int requests = 0;                        // worker requests sent
  int restarts = 0;                        // workers replaced on the way
  int infra_retries = 0;                   // requests re-sent after an infrastructure failure
  int worker_faults = 0;                   // replies that failed the reply checks
  double seconds = 0;                      // wall time
};

struct ServiceStats {
  uint64_t evaluations = 0;  // results returned
  uint64_t unavailable = 0;  // evaluations that could not run (not the pass's fault)
  uint64_t requests = 0;
  uint64_t restarts = 0;
  uint64_t infra_retries = 0;
  uint64_t worker_faults = 0;
  nlohmann::json to_json() const;
};

class EvaluationService {
 public:
  static Result<std::unique_ptr<EvaluationService>> start(ServiceOptions options);
  ~EvaluationService();
  EvaluationService(const EvaluationService&) = delete;
  EvaluationService& operator=(const EvaluationService&) = delete;

  //! Evaluates `files` on `task` in `mode` (full becomes compile-only after a
  //! fallback). Errors: ErrorCode::unavailable when nothing could run (no
  //! worker, an infrastructure failure that outlived its retries, a worker
  //! fault twice); other codes for a request this side built wrong.
  Result<Evaluation> evaluate(const Task& task, const std::map<std::string, std::string>& files,
                              EvalMode mode);

  //! The plan's mode, compile-only once the workers refused `full`.
  EvalMode mode() const { return full_unsupported_ ? EvalMode::compile_only : options_.plan.mode; }
  bool fell_back() const { return full_unsupported_; }
  const EvaluationPlan& plan() const { return options_.plan; }
  ServiceStats stats() const;
  sandbox::WorkerPool& pool() { return *pool_; }

 private:
  struct Attempt;
  EvaluationService(ServiceOptions options, std::unique_ptr<sandbox::WorkerPool> pool,
                    std::unique_ptr<const ProtocolOptions> protocol);

  EvalRequest request(const Task& task, const std::map<std::string, std::string>& files,
                      EvalMode mode) const;
  Result<Attempt> call(const EvalRequest& request, Evaluation& out);
  Result<nlohmann::json> run_compile_only(const EvalRequest& request, Evaluation& out);
  Result<nlohmann::json> run_full(EvalRequest request, Evaluation& out);
  void count(const Evaluation& e, bool evaluated);

  ServiceOptions options_;
  std::unique_ptr<const ProtocolOptions> protocol_;  // options_.options as scoring reads them
  std::unique_ptr<sandbox::WorkerPool> pool_;
  std::atomic<bool> full_unsupported_{false};
  std::atomic<uint64_t> evaluations_{0}, unavailable_{0}, requests_{0}, restarts_{0},
      infra_retries_{0}, worker_faults_{0};
};

}  // namespace pf::protocol
