#include "tests/integration/agent/episode_harness.h"

#include <gtest/gtest.h>


#include "agent/loop/task_context.h"
#include "evaluator/ops/op_registry.h"
#include "tests/support/temp_dir.h"
#include "trajectories/ids.h"

namespace pf::testing {

Task tiny_task(const std::string& id) {
  nlohmann::json j = {{"format", kTaskFormat}, {"id", id}, {"op_sequence", {"add", "relu"}}};
  auto variant = [](const std::string& name, std::vector<int> shape, bool hidden) {
    return nlohmann::json{
        {"name", name},
        {"hidden", hidden},
        {"source",
         "def forward(in_0, in_1):\n    tmp_0 = in_0 + in_1\n    tmp_1 = torch.relu(tmp_0)\n"
         "    return (tmp_1,)\n"},
        {"inputs",
         {{{"name", "in_0"}, {"dtype", "float32"}, {"shape", shape}, {"mean", 0.0}, {"std", 1.0}},
          {{"name", "in_1"},
           {"dtype", "float32"},
           {"shape", shape},
           {"mean", 0.0},
           {"std", 1.0}}}}};
  };
  j["variants"] = {variant("model.a.s1-2", {4, 64}, false),
                   variant("model.b.s3-4", {2, 8, 32}, false),
                   variant("model.c.s5-6", {3, 100}, true)};
  auto task = task_from_json(j, "tiny_task");
  EXPECT_TRUE(task.ok()) << task.error().message;
  return std::move(task).value();
}

std::filesystem::path write_tiny_task(const std::filesystem::path& dir, const std::string& id) {
  auto tasks = dir / "tasks";
  std::filesystem::create_directories(tasks);
  EXPECT_TRUE(save_task_file(tiny_task(id), tasks / (id + ".json")).ok());
  return tasks;
}

std::string script_line(const std::string& task, const std::string& mode,
                        const std::vector<nlohmann::json>& responses) {
  return nlohmann::json{{"task", task}, {"mode", mode}, {"responses", responses}}.dump() + "\n";
}

nlohmann::json tool_call(const std::string& name, const nlohmann::json& arguments,
                         const std::string& id) {
  nlohmann::json call = {
      {"type", "function"},
      {"function",
       {{"name", name},
        {"arguments", arguments.is_string() ? arguments.get<std::string>() : arguments.dump()}}}};
  if (!id.empty()) call["id"] = id;
  return {{"content", nullptr}, {"tool_calls", {call}}};
}

nlohmann::json tool_calls(const std::vector<std::pair<std::string, std::string>>& name_args) {
  nlohmann::json calls = nlohmann::json::array();
  for (const auto& [name, args] : name_args) {
    calls.push_back({{"type", "function"}, {"function", {{"name", name}, {"arguments", args}}}});
  }
  return {{"content", nullptr}, {"tool_calls", calls}};
}

std::filesystem::path make_temp_dir(const std::string& prefix) {
  return pf::test::fresh_temp_dir(prefix);
}

llm::LlmOptions fast_llm_options(const std::string& base_url) {
  llm::LlmOptions o;
  o.base_url = base_url;
  o.model = "test-model";
  o.api_key_env = "";
  o.request_timeout_s = 5;
  o.max_attempts = 4;
  o.backoff_initial_s = 0.01;
  o.backoff_max_s = 0.05;
  o.max_retry_time_s = 30;
  return o;
}

EpisodeHarness::EpisodeHarness(const std::string& base_url, AgentMode mode, llm::LlmOptions options,
                               const std::string& task_id, const HarnessWorkers& workers) {
  dir = make_temp_dir("pf_agent_it");
  auto prompts = prompts::PromptVariant::load(std::string(PF_SOURCE_DIR) + "/prompts", "default");
  EXPECT_TRUE(prompts.ok()) << prompts.error().message;
  prompts_ = std::make_unique<prompts::PromptVariant>(std::move(prompts).value());

  protocol::ServiceOptions so;
  so.plan.mode = workers.mode;
  so.plan.reason = "test workers";
  so.pool.worker_path = workers.worker.empty()
                            ? std::filesystem::path(PF_BINARY_DIR) / "passforge-worker"
                            : workers.worker;
  so.pool.cpu_workers = 1;
  so.pool.work_dir = dir / "workers";
  so.pool.cache_dir = dir / "nvrtc-cache";
  so.pool.extra_env = workers.env;
  so.pool.isolation = workers.isolation;
  so.timeout = std::chrono::seconds(60);
  auto service = protocol::EvaluationService::start(std::move(so));
  EXPECT_TRUE(service.ok()) << service.error().message;
  service_ = std::move(service).value();
  evaluator_ = std::make_unique<agent::EvaluatorClient>(*service_);

  if (options.base_url.empty()) options = fast_llm_options(base_url);
  auto client = llm::LlmClient::create(options);
  EXPECT_TRUE(client.ok()) << client.error().message;
  llm_ = std::move(client).value();

  auto st = traj::TrajectoryStore::open(dir / "run", traj::TrajectoryStore::OpenMode::create);
  EXPECT_TRUE(st.ok()) << st.error().message;
  store = std::move(st).value();
  traj::RunRecord run;
  run.id = "test-run";
  EXPECT_TRUE(store->create_run(run).ok());

  auto ctx = agent::prepare_task(tiny_task(task_id), HiddenVariants::task, 0, *prompts_, mode,
                                 OpRegistry::builtin());
  EXPECT_TRUE(ctx.ok()) << ctx.error().message;
  task = std::move(ctx).value();
  EXPECT_TRUE(store->upsert_task(task->record).ok());

  settings.mode = mode;
  settings.max_steps = 20;
  services_.llm = llm_.get();
  services_.evaluator = evaluator_.get();
  services_.store = store.get();
  services_.prompts = prompts_.get();
  services_.cancel = cancel_.get();
  services_.run_id = run.id;
  services_.model = options.model;
  auto system = prompts_->render(
      prompts::kSystemFile, {{"tools_mode", mode == AgentMode::tools},
                             {"chat_mode", mode == AgentMode::chat},
                             {"compile_only", workers.mode == protocol::EvalMode::compile_only},
                             {"gpu_arch", "sm_90"},
                             {"b", 0.1}});
  EXPECT_TRUE(system.ok());
  services_.system_prompt = *system;
}

EpisodeHarness::~EpisodeHarness() {
  store.reset();
  evaluator_.reset();
  service_.reset();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

void EpisodeHarness::reset_cancel() {
  cancel_ = std::make_unique<llm::CancelToken>();
  services_.cancel = cancel_.get();
}

agent::EpisodeResult EpisodeHarness::run(int64_t sample, bool resume) {
  agent::EpisodeSpec spec;
  spec.task = task;
  spec.sample = sample;
  spec.seed = 1000 + sample;
  spec.resume = resume;
  return agent::run_episode(spec, services_, settings);
}

traj::TrajectoryReader EpisodeHarness::reader() {
  auto r = traj::TrajectoryReader::open(dir / "run");
  EXPECT_TRUE(r.ok()) << r.error().message;
  return std::move(r).value();
}

std::string EpisodeHarness::episode_id(int64_t sample) const {
  return traj::episode_id("test-run", task->task.id, sample);
}

std::vector<traj::MessageRecord> EpisodeHarness::messages(int64_t sample) {
  auto m = reader().messages(episode_id(sample));
  EXPECT_TRUE(m.ok());
  return m.ok() ? *m : std::vector<traj::MessageRecord>{};
}

std::vector<traj::LlmCallRecord> EpisodeHarness::llm_calls(int64_t sample) {
  auto c = reader().llm_calls(episode_id(sample));
  EXPECT_TRUE(c.ok());
  return c.ok() ? *c : std::vector<traj::LlmCallRecord>{};
}

std::vector<traj::EvaluationRecord> EpisodeHarness::evaluations(int64_t sample) {
  auto e = reader().evaluations(episode_id(sample));
  EXPECT_TRUE(e.ok());
  return e.ok() ? *e : std::vector<traj::EvaluationRecord>{};
}

traj::EpisodeRecord EpisodeHarness::episode(int64_t sample) {
  auto e = reader().episode(episode_id(sample));
  EXPECT_TRUE(e.ok());
  return e.ok() ? *e : traj::EpisodeRecord{};
}

}  // namespace pf::testing
