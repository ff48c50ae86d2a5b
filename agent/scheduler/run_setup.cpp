#include "agent/scheduler/run_setup.h"

#include <algorithm>

#include "common/strings.h"
#include "config/config_json.h"
#include "sandbox/nvrtc/nvrtc_library.h"

namespace pf::agent {

std::string evaluation_faults_line(const protocol::ServiceStats& stats) {
  return "evaluation faults (none charged to the model): " + std::to_string(stats.infra_retries) +
         " infrastructure retr" + (stats.infra_retries == 1 ? "y" : "ies") + " on fresh workers, " +
         std::to_string(stats.worker_faults) + " worker repl" +
         (stats.worker_faults == 1 ? "y" : "ies") + " refused by the reply checks, " +
         std::to_string(stats.unavailable) + " of " +
         std::to_string(stats.unavailable + stats.evaluations) + " evaluations could not run";
}

traj::RunRecord new_run_record(const std::string& run_id, const Config& config,
                               const std::string& config_toml, const std::string& endpoint,
                               const std::string& model, const prompts::PromptVariant& prompts,
                               const protocol::EvaluationPlan& plan,
                               const std::vector<std::shared_ptr<const TaskContext>>& tasks) {
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
  std::vector<traj::TaskRecord> records;
  for (const auto& ctx : tasks) records.push_back(ctx->record);
  run.task_suite_hash = traj::task_suite_hash(records);
  // The NVRTC the workers compile with (the same library search as theirs);
  // empty only when it cannot be loaded here, which the run has said already.
  if (auto nvrtc_lib = nvrtc::NvrtcLibrary::load(); nvrtc_lib.ok()) {
    run.nvrtc_version = (*nvrtc_lib)->version();
  }
  return run;
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
