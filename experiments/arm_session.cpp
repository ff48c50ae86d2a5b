#include "experiments/arm_session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "agent/llm/llm_client.h"
#include "agent/loop/episode.h"
#include "agent/loop/task_context.h"
#include "agent/replay/replay_server.h"
#include "agent/scheduler/episode_seed.h"
#include "agent/scheduler/progress.h"
#include "agent/scheduler/run_session.h"
#include "agent/scheduler/run_setup.h"
#include "common/strings.h"
#include "config/config_json.h"
#include "evaluator/ops/op_registry.h"
#include "trajectories/ids.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/trajectory_store.h"

namespace pf::experiments {
namespace {

namespace fs = std::filesystem;
using agent::EpisodeServices;
using agent::EpisodeSettings;
using agent::EpisodeSpec;

constexpr const char* kDemoScript = "demo/replay.jsonl";

// Everything one arm's episodes share.
struct ArmRuntime {
  const ArmPlan* plan = nullptr;
  prompts::PromptVariant prompts;
  std::unique_ptr<llm::LlmClient> client;
  std::map<std::string, std::shared_ptr<const agent::TaskContext>> contexts;  // by task id
  EpisodeServices services;
  EpisodeSettings settings;
};

struct Job {
  ArmRuntime* arm = nullptr;
  EpisodeSpec spec;
};

}  // namespace

Result<std::vector<Task>> stored_tasks(const fs::path& store_dir,
                                       const std::vector<std::string>& ids) {
  PF_ASSIGN(auto reader, traj::TrajectoryReader::open(store_dir));
  PF_ASSIGN(auto records, reader.tasks());
  std::vector<Task> tasks;
  for (const auto& id : ids) {
    auto it = std::find_if(records.begin(), records.end(),
                           [&](const traj::TaskRecord& r) { return r.id == id; });
    if (it == records.end()) {
      return make_error(ErrorCode::not_found,
                        "task " + id + " is not in the store " + store_dir.string());
    }
    PF_ASSIGN(auto task, agent::task_from_record(*it));
    tasks.push_back(std::move(task));
  }
  return tasks;
}

Result<SessionOutcome> run_arm_session(const SessionRequest& request,
                                       const llm::CancelToken& cancel) {
  PF_CHECK(!request.arms.empty());
  const Config& shared = request.arms.front().config;
  SessionOutcome outcome;

  PF_ASSIGN(auto gpus, protocol::plan_evaluation(shared.evaluator));
  outcome.mode = agent::to_record_mode(gpus.mode);

  PF_ASSIGN(auto store, traj::TrajectoryStore::open(request.store_dir,
                                                    traj::TrajectoryStore::OpenMode::create));
  PF_ASSIGN(auto reader, store->reader());
  PF_ASSIGN(auto known_runs, reader.runs());

  // Per arm: prompts, task prompts, endpoint, run record.
  std::vector<std::unique_ptr<ArmRuntime>> arms;
  std::unique_ptr<replay::ReplayServer> replay_server;
  const OpRegistry& registry = OpRegistry::builtin();
  for (const auto& plan : request.arms) {
    auto arm = std::make_unique<ArmRuntime>();
    arm->plan = &plan;
    const Config& c = plan.config;
    const fs::path prompts_dir = agent::resolve_data_dir(c.prompts.dir);
    PF_ASSIGN(arm->prompts, prompts::PromptVariant::load(prompts_dir, c.prompts.variant));
    for (const auto& task : request.tasks) {
      auto extra = plan.task_context.find(task.id);
      auto ctx = agent::prepare_task(
          task, shared.evaluator.hidden_variants, shared.evaluator.hidden_share, arm->prompts,
          c.agent.mode, registry,
          extra != plan.task_context.end() ? extra->second : nlohmann::json::object());
      if (!ctx.ok()) return ctx.error().with_context("arm " + plan.name);
      arm->contexts[task.id] = std::move(ctx).value();
    }
    llm::LlmOptions llm = plan.llm;
    std::string endpoint_record = llm.base_url;
    if (llm.base_url.empty()) {
      const fs::path script_path = prompts_dir / kDemoScript;
      if (!replay_server) {
        auto script = replay::ReplayScript::load(script_path);
        if (!script.ok()) return script.error().with_context("the built-in demo replay script");
        replay::ReplayServerOptions ro;
        ro.threads = std::max(8, shared.run.concurrency + 4);
        PF_ASSIGN(replay_server, replay::ReplayServer::start(std::move(script).value(), ro));
        request.notice(
            "endpoint: no endpoint.base_url configured, so the arms without one "
            "REPLAY RECORDED ANSWERS from " +
            script_path.string() + "; they do not ask a model");
      }
      llm.base_url = replay_server->base_url();
      if (llm.model.empty()) llm.model = "passforge-replay";
      endpoint_record = "replay:" + script_path.string();
    }
    llm.max_concurrent = std::max(llm.max_concurrent, shared.run.concurrency);
    PF_ASSIGN(arm->client, llm::LlmClient::create(llm));

    bool exists = std::any_of(known_runs.begin(), known_runs.end(),
                              [&](const traj::RunRecord& r) { return r.id == plan.run_id; });
    if (!exists) {
      traj::RunRecord run;
      run.id = plan.run_id;
      run.config_toml = plan.config_toml;
      run.config_json = config_to_json(c);
      run.endpoint_base_url = endpoint_record;
      run.model = llm.model;
      run.prompt_variant = arm->prompts.name();
      run.prompt_hash = arm->prompts.hash();
      run.gpu_name = gpus.gpu_name;
      run.driver_version = gpus.driver_version;
      run.seed = shared.run.seed;
      run.task_suite_id = join(shared.run.tasks, ",");
      PF_TRY(store->create_run(run));
    }
    arm->settings = agent::episode_settings(c);
    arm->services.llm = arm->client.get();
    arm->services.store = store.get();
    arm->services.prompts = &arm->prompts;
    arm->services.cancel = &cancel;
    arm->services.run_id = plan.run_id;
    arm->services.model = llm.model;
    PF_ASSIGN(arm->services.system_prompt,
              agent::render_system_prompt(arm->prompts, c, outcome.mode));
    arms.push_back(std::move(arm));
  }
  for (const auto& [id, ctx] : arms.front()->contexts) PF_TRY(store->upsert_task(ctx->record));

  // The episodes, interleaved: task, sample, arm.
  std::map<std::string, traj::RunState> known;
  PF_ASSIGN(auto episodes, reader.episodes({}));
  for (const auto& e : episodes) known[e.id] = e.status;
  std::vector<Job> jobs;
  size_t total = 0, done = 0;
  for (const auto& task : request.tasks) {
    for (int64_t s = 0; s < shared.run.samples_per_task; ++s) {
      for (auto& arm : arms) {
        ++total;
        Job job;
        job.arm = arm.get();
        job.spec.task = arm->contexts.at(task.id);
        job.spec.sample = s;
        job.spec.seed = agent::episode_seed(shared.run.seed, task.id, s);
        auto it = known.find(traj::episode_id(arm->plan->run_id, task.id, s));
        if (it != known.end()) {
          if (it->second == traj::RunState::finished || it->second == traj::RunState::failed) {
            ++done;
            continue;
          }
          job.spec.resume = true;
        }
        jobs.push_back(std::move(job));
      }
    }
  }

  PF_ASSIGN(auto service,
            protocol::EvaluationService::start(protocol::service_options(shared, gpus)));
  agent::EvaluatorClient evaluator(*service);
  for (auto& arm : arms) arm->services.evaluator = &evaluator;

  agent::ProgressTracker progress(total, done, outcome.mode);
  std::vector<std::optional<agent::EpisodeResult>> results(jobs.size());
  {
    agent::ProgressPrinter printer(progress, request.terminal,
                                   std::chrono::milliseconds(request.terminal ? 500 : 30'000));
    std::atomic<size_t> next{0};
    auto worker = [&] {
      while (!cancel.cancelled()) {
        size_t i = next.fetch_add(1);
        if (i >= jobs.size()) return;
        progress.episode_started();
        auto r = agent::run_episode(jobs[i].spec, jobs[i].arm->services, jobs[i].arm->settings);
        progress.episode_finished(r);
        results[i] = std::move(r);
      }
    };
    size_t threads =
        std::min(jobs.size(), static_cast<size_t>(std::max(1, shared.run.concurrency)));
    std::vector<std::thread> pool_threads;
    for (size_t t = 0; t < threads; ++t) pool_threads.emplace_back(worker);
    for (auto& t : pool_threads) t.join();
  }
  for (const auto& r : results) {
    if (!r || r->exit_reason == agent::ExitReason::interrupted) {
      outcome.interrupted = true;
      continue;
    }
    ++outcome.episodes_run;
    if (r->exit_reason == agent::ExitReason::endpoint_error ||
        r->exit_reason == agent::ExitReason::store_error) {
      ++outcome.failed_episodes;
    }
  }
  if (cancel.cancelled()) outcome.interrupted = true;
  for (const auto& plan : request.arms) {
    PF_TRY(store->finish_run(
        plan.run_id, outcome.interrupted ? traj::RunState::interrupted : traj::RunState::finished));
  }
  if (evaluator.fell_back()) {
    outcome.mode = evaluator.mode();
    request.notice(
        "evaluation: the workers could not evaluate on the GPU, so this session FELL "
        "BACK TO COMPILE-ONLY (see the log above)");
  }
  return outcome;
}

}  // namespace pf::experiments
