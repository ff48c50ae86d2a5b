#include "agent/scheduler/run_setup.h"

#include <algorithm>
#include <thread>

#include "common/strings.h"
#include "config/config_json.h"
#include "sandbox/cuda/cuda_driver.h"
#include "sandbox/cuda/device_properties.h"
#include "sandbox/nvrtc/compile_cache.h"

namespace pf::agent {

Result<EvaluationPlan> plan_evaluation(const EvaluatorConfig& ev) {
  EvaluationPlan plan;
  if (ev.compile_only == CompileOnly::yes) {
    plan.reason = "evaluator.compile_only = true";
    return plan;
  }
  auto driver = cuda::CudaDriver::load();
  int count = driver.ok() ? (*driver)->device_count() : 0;
  if (count == 0) {
    std::string why = driver.ok() ? "no CUDA device" : driver.error().message;
    if (ev.compile_only == CompileOnly::no) {
      return make_error(ErrorCode::unsupported,
                        "evaluator.compile_only = false, but no GPU is usable here (" + why +
                            "); set it to \"auto\" or true to evaluate compile-only");
    }
    plan.reason = "no GPU here (" + why + ")";
    return plan;
  }
  std::vector<int> ordinals;
  if (ev.gpus.all) {
    for (int i = 0; i < count; ++i) ordinals.push_back(i);
  } else {
    for (int i : ev.gpus.indices) {
      if (i < 0 || i >= count) {
        return make_error(ErrorCode::invalid_argument,
                          "evaluator.gpus lists GPU " + std::to_string(i) +
                              ", but this machine has " + std::to_string(count) + " (0.." +
                              std::to_string(count - 1) + ")");
      }
      ordinals.push_back(i);
    }
  }
  plan.mode = traj::EvalMode::full;
  for (int i : ordinals) plan.devices.push_back(std::to_string(i));
  plan.driver_version = (*driver)->driver_version_string();
  if (auto props = cuda::query_device_properties(**driver, ordinals.front()); props.ok()) {
    plan.gpu_name = props->name;
  }
  plan.reason = std::to_string(ordinals.size()) + " GPU worker(s)" +
                (plan.gpu_name.empty() ? "" : " on " + plan.gpu_name);
  return plan;
}

sandbox::WorkerLimits worker_limits(const EvaluatorConfig& evaluator) {
  sandbox::WorkerLimits limits;
  limits.memory_mb = static_cast<uint64_t>(std::max(0, evaluator.worker_memory_mb));
  limits.compile_timeout_ms = static_cast<uint64_t>(evaluator.compile_timeout_s * 1000.0);
  limits.max_cubin_mb = static_cast<uint64_t>(std::max(0, evaluator.max_cubin_mb));
  limits.cache_max_mb = static_cast<uint64_t>(std::max(0, evaluator.nvrtc_cache_max_mb));
  return limits;
}

Result<std::unique_ptr<sandbox::WorkerPool>> start_worker_pool(const Config& config,
                                                               const EvaluationPlan& plan) {
  sandbox::WorkerPoolOptions o;
  o.gpu_devices = plan.devices;
  unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  o.cpu_workers = std::max(1, std::min(config.run.concurrency, static_cast<int>(hw)));
  o.cache_dir = config.evaluator.nvrtc_cache_dir.empty()
                    ? nvrtc::CompileCache::default_dir()
                    : std::filesystem::path(config.evaluator.nvrtc_cache_dir);
  o.limits = worker_limits(config.evaluator);
  auto pool = sandbox::WorkerPool::start(std::move(o));
  if (!pool.ok()) return pool.error().with_context("starting the evaluation workers");
  return pool;
}

traj::RunRecord new_run_record(const std::string& run_id, const Config& config,
                               const std::string& config_toml, const std::string& endpoint,
                               const std::string& model, const prompts::PromptVariant& prompts,
                               const EvaluationPlan& plan) {
  traj::RunRecord run;
  run.id = run_id;
  run.config_toml = config_toml;
  run.config_json = config_to_json(config);
  run.endpoint_base_url = endpoint;
  run.model = model;
  run.prompt_variant = prompts.name();
  run.prompt_hash = prompts.hash();
  run.gpu_name = plan.gpu_name;
  run.driver_version = plan.driver_version;
  run.seed = config.run.seed;
  run.task_suite_id = join(config.run.tasks, ",");
  return run;
}

EvaluationSettings evaluation_settings(const Config& config, const EvaluationPlan& plan) {
  EvaluationSettings es;
  es.mode = plan.mode;
  es.timeout =
      std::chrono::milliseconds(static_cast<int64_t>(config.evaluator.worker_timeout_s * 1000.0));
  es.options = config_to_json(config)["evaluator"];
  es.failure_score = config.evaluator.b;
  es.compile_only_arch = config.evaluator.gpu_arch;
  return es;
}

EpisodeSettings episode_settings(const Config& c) {
  EpisodeSettings s;
  s.mode = c.agent.mode;
  s.max_steps = c.agent.max_steps;
  s.max_total_tokens = c.agent.max_total_tokens;
  s.max_wall_s = c.agent.max_wall_s;
  s.context_policy = c.agent.context_policy;
  s.context_last_n = c.agent.context_last_n;
  s.max_context_tokens = c.agent.max_context_tokens;
  s.parallel_tool_calls = c.agent.parallel_tool_calls;
  s.feedback_max_chars = static_cast<size_t>(std::max(200, c.evaluator.feedback_max_chars));
  s.send_seed = c.endpoint.sampling.seed.has_value();
  return s;
}

Result<std::string> render_system_prompt(const prompts::PromptVariant& prompts,
                                         const Config& config, traj::EvalMode mode) {
  const nlohmann::json context = {{"tools_mode", config.agent.mode == AgentMode::tools},
                                  {"chat_mode", config.agent.mode == AgentMode::chat},
                                  {"parallel_tool_calls", config.agent.parallel_tool_calls},
                                  {"compile_only", mode == traj::EvalMode::compile_only},
                                  {"gpu_arch", config.evaluator.gpu_arch},
                                  {"b", config.evaluator.b},
                                  {"max_steps", config.agent.max_steps}};
  return prompts.render(prompts::kSystemFile, context);
}

}  // namespace pf::agent
