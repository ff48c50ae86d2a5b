#include "agent/scheduler/run_setup.h"

#include <algorithm>

namespace pf::agent {

std::string evaluation_faults_line(const protocol::ServiceStats& stats) {
  return "evaluation faults (none charged to the model): " + std::to_string(stats.infra_retries) +
         " infrastructure retr" + (stats.infra_retries == 1 ? "y" : "ies") + " on fresh workers, " +
         std::to_string(stats.worker_faults) + " worker repl" +
         (stats.worker_faults == 1 ? "y" : "ies") + " refused by the reply checks, " +
         std::to_string(stats.unavailable) + " of " +
         std::to_string(stats.unavailable + stats.evaluations) + " evaluations could not run";
}

EpisodeSettings episode_settings(const Config& c) {
  EpisodeSettings s;
  s.mode = c.agent.mode;
  s.max_steps = c.agent.max_steps;
  s.max_total_tokens = c.agent.max_total_tokens;
  s.max_wall_s = c.agent.max_wall_s;
  s.context_policy = c.agent.context_policy;
  s.context_last_n = c.agent.context_last_n;
  s.feedback_max_chars = static_cast<size_t>(std::max(200, c.evaluator.feedback_max_chars));
  s.send_seed = c.endpoint.sampling.seed.has_value();
  return s;
}

Result<std::string> render_system_prompt(const prompts::PromptVariant& prompts,
                                         const Config& config, traj::EvalMode mode) {
  const nlohmann::json context = {{"tools_mode", config.agent.mode == AgentMode::tools},
                                  {"chat_mode", config.agent.mode == AgentMode::chat},
                                  {"compile_only", mode == traj::EvalMode::compile_only},
                                  {"gpu_arch", config.evaluator.gpu_arch},
                                  {"b", config.evaluator.b},
                                  {"max_steps", config.agent.max_steps}};
  return prompts.render(prompts::kSystemFile, context);
}

}  // namespace pf::agent
