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
//     when the workers answer that they cannot run `full`;
//   - with cpu_precompile (full mode, a known GPU arch and an NVRTC cache),
//     first sends each full evaluation as a compile-only request for the
//     GPU's arch to a separate pool of CPU workers: NVRTC, matching and dry
//     runs happen there, the cubins land in the shared, verified compile
//     cache, and a candidate that fails as a whole or on every variant is
//     answered from that result (full_result_without_gpu) without ever
//     reaching a GPU worker. Otherwise the full request goes to the GPU
//     workers as before; their compile is then a cache hit, so a GPU is held
//     only for loading kernels, matching again (cheap) and running/timing.
//     A precompile the CPU side cannot finish (worker killed, infrastructure)
//     leaves the decision to the GPU worker, exactly as without the split.
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
#include <optional>
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
  //! Full mode: compile, match and dry-run on CPU workers first (above);
  //! in effect only with plan.gpu_arch and pool.cache_dir set.
  bool cpu_precompile = true;
  int precompile_workers = 1;  // CPU workers of the precompile pool
};

//! The [evaluator] limits every worker runs under (docs/evaluation.md "Worker
//! limits"). (service_options.cpp)
sandbox::WorkerLimits worker_limits(const EvaluatorConfig& evaluator);

//! From the configuration: the [evaluator] section as request options, the
//! worker limits,
//! worker_timeout_s, gpu_arch, the NVRTC cache, cpu_precompile, and
//! min(run.concurrency, cores) CPU workers (the compile-only pool, or the
//! precompile pool in full mode). (service_options.cpp)
ServiceOptions service_options(const Config& config, const EvaluationPlan& plan);

struct Evaluation {
  nlohmann::json result;                   // checked; task-level scores are the orchestrator's
  EvalMode mode = EvalMode::compile_only;  // what the workers really ran
  int requests = 0;                        // worker requests sent
  int restarts = 0;                        // workers replaced on the way
  int infra_retries = 0;                   // requests re-sent after an infrastructure failure
  int worker_faults = 0;                   // replies that failed the reply checks
  bool precompiled = false;                // compiled, matched and dry-run on a CPU worker first
  bool gpu = false;                        // a GPU worker took part
  double seconds = 0;                      // wall time
};

struct ServiceStats {
  uint64_t evaluations = 0;  // results returned
  uint64_t unavailable = 0;  // evaluations that could not run (not the pass's fault)
  uint64_t requests = 0;
  uint64_t restarts = 0;
  uint64_t infra_retries = 0;
  uint64_t worker_faults = 0;
  uint64_t precompiled = 0;   // full evaluations compiled on CPU workers first
  uint64_t kept_off_gpu = 0;  // of those, decided without a GPU (failed compile/match/dry run)
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
  //! The GPU workers' load (one slot per GPU) in full mode; the CPU
  //! workers' otherwise.
  sandbox::PoolLoad load() const { return pool_->load(); }
  //! The precompile pool, or null when the split is off.
  const sandbox::WorkerPool* precompile_pool() const { return cpu_pool_.get(); }

 private:
  struct Attempt;
  EvaluationService(ServiceOptions options, std::unique_ptr<sandbox::WorkerPool> pool,
                    std::unique_ptr<sandbox::WorkerPool> cpu_pool,
                    std::unique_ptr<const ProtocolOptions> protocol);

  EvalRequest request(const Task& task, const std::map<std::string, std::string>& files,
                      EvalMode mode) const;
  Result<Attempt> call(sandbox::WorkerPool& pool, const EvalRequest& request, Evaluation& out);
  //! The full result when the CPU workers' compile-only phase decides it alone.
  std::optional<nlohmann::json> precompile(const EvalRequest& request, Evaluation& out);
  Result<nlohmann::json> run_compile_only(const EvalRequest& request, Evaluation& out);
  Result<nlohmann::json> run_full(EvalRequest request, Evaluation& out);
  void count(const Evaluation& e, bool evaluated);

  ServiceOptions options_;
  std::unique_ptr<const ProtocolOptions> protocol_;  // options_.options as scoring reads them
  std::unique_ptr<sandbox::WorkerPool> pool_;
  std::unique_ptr<sandbox::WorkerPool> cpu_pool_;  // precompile workers (null: split off)
  std::atomic<bool> full_unsupported_{false};
  std::atomic<uint64_t> evaluations_{0}, unavailable_{0}, requests_{0}, restarts_{0},
      infra_retries_{0}, worker_faults_{0}, precompiled_{0}, kept_off_gpu_{0};
};

}  // namespace pf::protocol
