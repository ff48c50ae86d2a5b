// service_options: the configuration's side of the EvaluationService, kept
// apart because config/config.h and the scoring headers cannot meet in one
// translation unit (both define pf::ScoringMode).
#include <algorithm>
#include <thread>

#include "config/config.h"
#include "config/config_json.h"
#include "evaluator/protocol/evaluation_service.h"
#include "sandbox/nvrtc/compile_cache.h"

namespace pf::protocol {

sandbox::WorkerLimits worker_limits(const EvaluatorConfig& evaluator) {
  sandbox::WorkerLimits limits;
  limits.memory_mb = static_cast<uint64_t>(std::max(0, evaluator.worker_memory_mb));
  limits.compile_timeout_ms = static_cast<uint64_t>(evaluator.compile_timeout_s * 1000.0);
  limits.compile_memory_mb = static_cast<uint64_t>(std::max(0, evaluator.compile_memory_mb));
  limits.max_cubin_mb = static_cast<uint64_t>(std::max(0, evaluator.max_cubin_mb));
  limits.cache_max_mb = static_cast<uint64_t>(std::max(0, evaluator.nvrtc_cache_max_mb));
  return limits;
}

ServiceOptions service_options(const Config& config, const EvaluationPlan& plan) {
  ServiceOptions o;
  o.plan = plan;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  o.pool.cpu_workers = std::max(1, std::min(config.run.concurrency, static_cast<int>(hw)));
  o.pool.cache_dir = config.evaluator.nvrtc_cache_dir.empty()
                         ? nvrtc::CompileCache::default_dir()
                         : std::filesystem::path(config.evaluator.nvrtc_cache_dir);
  o.timeout =
      std::chrono::milliseconds(static_cast<int64_t>(config.evaluator.worker_timeout_s * 1000.0));
  o.options = config_to_json(config)["evaluator"];
  o.compile_only_arch = config.evaluator.gpu_arch;
  o.pool.limits = worker_limits(config.evaluator);
  o.cpu_precompile = config.evaluator.cpu_precompile;
  o.precompile_workers = o.pool.cpu_workers;
  return o;
}

}  // namespace pf::protocol
