// Runs real episodes for the integration tests: the default prompt variant, a
// small real task, a store in a temporary directory, a WorkerPool of real
// passforge-worker processes (compile-only) and an LlmClient pointed at a
// loopback server (the replay server or the fault-injecting server).
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent/llm/llm_client.h"
#include "agent/loop/episode.h"
#include "evaluator/protocol/evaluation_service.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/trajectory_store.h"

namespace pf::testing {

//! add -> relu on two visible float32 variants and one hidden one.
Task tiny_task(const std::string& id = "add-relu-test");

//! A task file of tiny_task() written under `dir`/tasks/; returns that directory.
std::filesystem::path write_tiny_task(const std::filesystem::path& dir,
                                      const std::string& id = "add-relu-test");

//! One replay script line (docs/replay-script.md).
std::string script_line(const std::string& task, const std::string& mode,
                        const std::vector<nlohmann::json>& responses);
//! An assistant message calling one tool.
nlohmann::json tool_call(const std::string& name, const nlohmann::json& arguments,
                         const std::string& id = "");
//! An assistant message calling several tools at once.
nlohmann::json tool_calls(const std::vector<std::pair<std::string, std::string>>& name_args);

std::filesystem::path make_temp_dir(const std::string& prefix);

//! LlmOptions for fast tests: short timeouts and backoff.
llm::LlmOptions fast_llm_options(const std::string& base_url);

//! The evaluation workers of a harness: real passforge-worker processes in
//! compile-only mode unless a test asks for another worker binary or mode.
struct HarnessWorkers {
  std::filesystem::path worker;  // empty: passforge-worker of this build
  protocol::EvalMode mode = protocol::EvalMode::compile_only;
  std::vector<std::string> env;  // "NAME=value" for the workers
  bool isolation = true;
};

class EpisodeHarness {
 public:
  EpisodeHarness(const std::string& base_url, AgentMode mode, llm::LlmOptions options = {},
                 const std::string& task_id = "add-relu-test", const HarnessWorkers& workers = {});
  ~EpisodeHarness();

  agent::EpisodeResult run(int64_t sample = 0, bool resume = false);
  llm::CancelToken& cancel() { return *cancel_; }
  protocol::EvaluationService& service() { return *service_; }
  //! A fresh (unset) cancel token for the next run.
  void reset_cancel();

  traj::TrajectoryReader reader();
  //! Messages of the episode of `sample`.
  std::vector<traj::MessageRecord> messages(int64_t sample = 0);
  std::vector<traj::LlmCallRecord> llm_calls(int64_t sample = 0);
  std::vector<traj::EvaluationRecord> evaluations(int64_t sample = 0);
  traj::EpisodeRecord episode(int64_t sample = 0);
  std::string episode_id(int64_t sample = 0) const;

  std::filesystem::path dir;
  agent::EpisodeSettings settings;
  std::unique_ptr<traj::TrajectoryStore> store;
  std::shared_ptr<const agent::TaskContext> task;

 private:
  std::unique_ptr<prompts::PromptVariant> prompts_;
  std::unique_ptr<protocol::EvaluationService> service_;
  std::unique_ptr<agent::EvaluatorClient> evaluator_;
  std::unique_ptr<llm::LlmClient> llm_;
  std::unique_ptr<llm::CancelToken> cancel_ = std::make_unique<llm::CancelToken>();
  agent::EpisodeServices services_;
};

}  // namespace pf::testing
