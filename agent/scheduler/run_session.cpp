#include "agent/scheduler/run_session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>

#include "agent/llm/llm_client.h"
#include "agent/loop/episode.h"
#include "agent/loop/task_context.h"
#include "agent/replay/replay_server.h"
#include "agent/scheduler/episode_seed.h"
#include "agent/scheduler/run_setup.h"
#include "agent/scheduler/run_tasks.h"
#include "agent/scheduler/scheduler.h"
#include "common/fs.h"
#include "common/strings.h"
#include "config/config_json.h"
#include "evaluator/ops/op_registry.h"
#include "trajectories/ids.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/trajectory_store.h"

namespace pf::agent {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDemoScript = "demo/replay.jsonl";

// The episodes of the run, and which of them an earlier session finished.
struct EpisodePlan {
  std::vector<EpisodeSpec> specs;
  size_t already_done = 0;
  size_t total = 0;
};

Result<EpisodePlan> plan_episodes(const std::vector<std::shared_ptr<const TaskContext>>& tasks,
                                  const Config& config, const std::string& run_id,
                                  traj::TrajectoryStore& store) {
  std::map<std::string, traj::RunState> known;
  PF_ASSIGN(auto reader, store.reader());
  traj::EpisodeFilter filter;
  filter.run_id = run_id;
  PF_ASSIGN(auto episodes, reader.episodes(filter));
  for (const auto& e : episodes) known[e.id] = e.status;
  EpisodePlan plan;
  for (const auto& task : tasks) {
    for (int64_t s = 0; s < config.run.samples_per_task; ++s) {
      ++plan.total;
      EpisodeSpec spec;
      spec.task = task;
      spec.sample = s;
      spec.seed = episode_seed(config.run.seed, task->task.id, s);
      auto it = known.find(traj::episode_id(run_id, task->task.id, s));
      if (it != known.end()) {
        if (it->second == traj::RunState::finished || it->second == traj::RunState::failed) {
          ++plan.already_done;
          continue;
        }
        spec.resume = true;
      }
      plan.specs.push_back(std::move(spec));
    }
  }
  return plan;
}

// The summary of a stored run whose `expected` episodes all ended (finished
// or failed), in the mode its evaluations ran; nullopt while any is missing
// or unfinished.
Result<std::optional<RunSummary>> finished_summary(traj::TrajectoryReader& reader,
                                                   const std::string& run_id, size_t expected) {
  traj::EpisodeFilter filter;
  filter.run_id = run_id;
  PF_ASSIGN(auto episodes, reader.episodes(filter));
  if (episodes.size() < expected) return std::optional<RunSummary>();
  traj::EvalMode mode = traj::EvalMode::compile_only;
  for (const auto& e : episodes) {
    if (e.status != traj::RunState::finished && e.status != traj::RunState::failed) {
      return std::optional<RunSummary>();
    }
    if (mode == traj::EvalMode::compile_only) {
      PF_ASSIGN(auto evaluations, reader.evaluations(e.id));
      for (const auto& ev : evaluations) {
        if (ev.mode == traj::EvalMode::full) mode = traj::EvalMode::full;
      }
    }
  }
  PF_ASSIGN(auto summary, summarize_run(reader, run_id, mode));
  return std::optional<RunSummary>(std::move(summary));
}

// The summary from the store, with the episodes it could not record added;
// when the store cannot even be read, this session's episodes from memory.
RunSummary summarize_session(traj::TrajectoryStore& store, RunOutcome& outcome,
                             const std::vector<std::optional<EpisodeResult>>& results,
                             const std::vector<const EpisodeResult*>& unrecorded) {
  auto read = [&]() -> Result<std::pair<RunSummary, std::set<std::string>>> {
    PF_ASSIGN(auto reader, store.reader());
    PF_ASSIGN(auto summary, summarize_run(reader, outcome.run_id, outcome.mode));
    traj::EpisodeFilter filter;
    filter.run_id = outcome.run_id;
    PF_ASSIGN(auto episodes, reader.episodes(filter));
    std::set<std::string> ids;
    for (const auto& e : episodes) ids.insert(e.id);
    return std::pair{std::move(summary), std::move(ids)};
  };
  auto stored = read();
  if (stored.ok()) {
    for (const EpisodeResult* r : unrecorded) {
      add_unrecorded_episode(stored->first, *r, stored->second.count(r->episode_id) > 0);
    }
    return std::move(stored->first);
  }
  spdlog::error("reading the run's store for its summary failed: {}", stored.error().message);
  if (outcome.store_error.empty()) outcome.store_error = stored.error().message;
  outcome.interrupted = true;
  RunSummary summary;
  summary.mode = outcome.mode;
  summary.total.task_id = "all";
  for (const auto& r : results) {
    if (r) add_unrecorded_episode(summary, *r, false);
  }
  return summary;
}

}  // namespace

fs::path resolve_data_dir(const fs::path& dir) {
  std::error_code ec;
  if (dir.is_absolute() || fs::exists(dir, ec)) return dir;
  for (const auto& base : {executable_dir().parent_path(), executable_dir()}) {
    if (fs::exists(base / dir, ec)) return base / dir;
  }
  return dir;
}

Result<StoredRunConfig> load_run_config(const fs::path& run_dir) {
  std::error_code ec;
  if (!fs::exists(traj::store_path(run_dir), ec)) {
    return make_error(ErrorCode::not_found, "--resume " + run_dir.string() + ": no " +
                                                traj::store_path(run_dir).string());
  }
  PF_ASSIGN(auto reader, traj::TrajectoryReader::open(run_dir));
  PF_ASSIGN(auto runs, reader.runs());
  if (runs.size() != 1) {
    return make_error(ErrorCode::invalid_argument,
                      "--resume " + run_dir.string() + ": expected the store of one run, found " +
                          std::to_string(runs.size()) + " runs (a merged store cannot resume)");
  }
  auto config = config_from_json(runs[0].config_json);
  if (!config.ok()) return config.error().with_context("the stored configuration of the run");
  return StoredRunConfig{std::move(config).value(), runs[0].config_toml, runs[0].id};
}

Result<RunOutcome> execute_run(const RunRequest& request, const llm::CancelToken& cancel) {
  const Config& config = request.config;
  const bool resuming = !request.resume_dir.empty();

  // Prompts.
  const fs::path prompts_dir = resolve_data_dir(config.prompts.dir);
  PF_ASSIGN(auto prompts, prompts::PromptVariant::load(prompts_dir, config.prompts.variant));

  // Store and run record.
  RunOutcome outcome;
  std::unique_ptr<traj::TrajectoryStore> store;
  std::vector<Task> tasks;
  if (resuming) {
    PF_ASSIGN(auto stored, load_run_config(request.resume_dir));
    outcome.run_id = stored.run_id;
    outcome.run_dir = request.resume_dir;
    PF_ASSIGN(store, traj::TrajectoryStore::open(request.resume_dir,
                                                 traj::TrajectoryStore::OpenMode::existing));
    PF_ASSIGN(auto reader, store->reader());
    PF_ASSIGN(auto records, reader.tasks());
    for (const auto& r : records) {
      PF_ASSIGN(auto task, task_from_record(r));
      tasks.push_back(std::move(task));
    }
    PF_ASSIGN(auto finished, finished_summary(reader, outcome.run_id,
                                              tasks.size() * static_cast<size_t>(std::max<int64_t>(
                                                                 0, config.run.samples_per_task))));
    if (finished) {
      request.notice("all " + std::to_string(finished->total.episodes) + " episodes of run " +
                     outcome.run_id + " are finished; nothing to resume");
      PF_TRY(store->finish_run(outcome.run_id, traj::RunState::finished));
      outcome.mode = finished->mode;
      outcome.summary = std::move(*finished);
      outcome.episodes = outcome.summary.total.episodes;
      return outcome;
    }
    PF_ASSIGN(auto runs, reader.runs());
    if (!runs.empty() && runs[0].prompt_hash != prompts.hash()) {
      spdlog::warn(
          "prompt variant '{}' changed since the run started (hash {} -> {}); resumed "
          "episodes keep their stored messages, new ones use the current files",
          prompts.name(), runs[0].prompt_hash.substr(0, 12), prompts.hash().substr(0, 12));
    }
  } else {
    PF_ASSIGN(tasks, load_run_tasks(config.run.tasks));
    outcome.run_id = config.run.run_id.empty() ? traj::make_run_id() : config.run.run_id;
    outcome.run_dir = fs::path(config.run.output_dir) / outcome.run_id;
    std::error_code ec;
    if (fs::exists(traj::store_path(outcome.run_dir), ec)) {
      return make_error(ErrorCode::invalid_argument,
                        "run " + outcome.run_id + " already exists in " + outcome.run_dir.string() +
                            "; continue it with --resume " + outcome.run_dir.string() +
                            " or choose another run.run_id");
    }
  }

  // Evaluation mode.
  PF_ASSIGN(auto gpus, plan_evaluation(config.evaluator));
  outcome.mode = gpus.mode;
  if (gpus.mode == traj::EvalMode::full) {
    request.notice("evaluation: FULL on the GPU (" + gpus.reason + ")");
  } else {
    request.notice("evaluation: COMPILE-ONLY (" + gpus.reason +
                   "): kernels are compiled and patterns matched, nothing runs on a GPU, so "
                   "there is no correctness check and no AS");
  }

  // Tasks as the episodes see them.
  const OpRegistry& registry = OpRegistry::builtin();
  std::vector<std::shared_ptr<const TaskContext>> contexts;
  for (auto& task : tasks) {
    PF_ASSIGN(auto ctx,
              prepare_task(std::move(task), config.evaluator.hidden_variants,
                           config.evaluator.hidden_share, prompts, config.agent.mode, registry));
    contexts.push_back(std::move(ctx));
  }

  // Endpoint: the configured one, or the built-in replay endpoint.
  llm::LlmOptions llm_options = request.llm;
  std::unique_ptr<replay::ReplayServer> replay_server;
  if (llm_options.base_url.empty()) {
    const fs::path script_path = prompts_dir / kDemoScript;
    auto script = replay::ReplayScript::load(script_path);
    if (!script.ok()) return script.error().with_context("the built-in demo replay script");
    replay::ReplayServerOptions ro;
    ro.threads = std::max(8, config.run.concurrency + 4);
    PF_ASSIGN(replay_server, replay::ReplayServer::start(std::move(script).value(), ro));
    llm_options.base_url = replay_server->base_url();
    if (llm_options.model.empty()) llm_options.model = ro.replay.model;
    llm_options.max_concurrent = std::max(llm_options.max_concurrent, config.run.concurrency);
    request.notice(
        "endpoint: no endpoint.base_url configured, so this run REPLAYS RECORDED "
        "ANSWERS from " +
        script_path.string() + " (served on " + replay_server->base_url() +
        "); it does not ask a model. Set endpoint.base_url "
        "and endpoint.model (or OPENAI_BASE_URL / OPENAI_MODEL) to ask one.");
  } else {
    request.notice("endpoint: " + llm_options.base_url + ", model " + llm_options.model);
  }
  PF_ASSIGN(auto client, llm::LlmClient::create(llm_options));

  PF_ASSIGN(auto pool, start_worker_pool(config, gpus));

  if (!resuming) {
    PF_ASSIGN(store, traj::TrajectoryStore::open(outcome.run_dir,
                                                 traj::TrajectoryStore::OpenMode::create));
    traj::RunRecord run;
    run.id = outcome.run_id;
    run.config_toml = request.config_toml;
    run.config_json = config_to_json(config);
    run.endpoint_base_url =
        replay_server ? "replay:" + (prompts_dir / kDemoScript).string() : llm_options.base_url;
    run.model = llm_options.model;
    run.prompt_variant = prompts.name();
    run.prompt_hash = prompts.hash();
    run.gpu_name = gpus.gpu_name;
    run.driver_version = gpus.driver_version;
    run.seed = config.run.seed;
    run.task_suite_id = join(config.run.tasks, ",");
    PF_TRY(store->create_run(run));
    for (const auto& ctx : contexts) PF_TRY(store->upsert_task(ctx->record));
  }
  request.notice("run " + outcome.run_id + ": " + traj::store_path(outcome.run_dir).string());

  // Episodes.
  PF_ASSIGN(auto plan, plan_episodes(contexts, config, outcome.run_id, *store));
  if (resuming) {
    request.notice("resuming " + std::to_string(plan.specs.size()) + " of " +
                   std::to_string(plan.total) + " episodes (" + std::to_string(plan.already_done) +
                   " ended earlier)");
  }
  EvaluatorClient evaluator(*pool, evaluation_settings(config, gpus));

  EpisodeServices services;
  services.llm = client.get();
  services.evaluator = &evaluator;
  services.store = store.get();
  services.prompts = &prompts;
  services.cancel = &cancel;
  services.run_id = outcome.run_id;
  services.model = llm_options.model;
  PF_ASSIGN(services.system_prompt, render_system_prompt(prompts, config, gpus.mode));

  ProgressTracker progress(plan.total, plan.already_done, gpus.mode);
  std::vector<std::optional<EpisodeResult>> results;
  {
    ProgressPrinter printer(progress, request.terminal,
                            std::chrono::milliseconds(request.terminal ? 500 : 30'000));
    results = run_episodes(plan.specs, services, episode_settings(config), config.run.concurrency,
                           &progress);
  }
  for (const auto& r : results) {
    if (!r) {
      outcome.interrupted = true;
      continue;
    }
    if (r->exit_reason == ExitReason::interrupted) outcome.interrupted = true;
    if (r->exit_reason == ExitReason::endpoint_error || r->exit_reason == ExitReason::store_error) {
      ++outcome.failed_episodes;
    }
  }
  if (cancel.cancelled()) outcome.interrupted = true;
  // An episode the store could not record is resumable, not done: the run is
  // interrupted, whatever else happened.
  std::vector<const EpisodeResult*> unrecorded;
  for (const auto& r : results) {
    if (r && r->exit_reason == ExitReason::store_error) {
      unrecorded.push_back(&*r);
      if (outcome.store_error.empty()) outcome.store_error = r->detail;
    }
  }
  if (!unrecorded.empty()) outcome.interrupted = true;
  if (auto st = store->finish_run(outcome.run_id, outcome.interrupted ? traj::RunState::interrupted
                                                                      : traj::RunState::finished);
      !st.ok()) {
    spdlog::error("marking run {} {} failed: {}", outcome.run_id,
                  outcome.interrupted ? "interrupted" : "finished", st.error().message);
    outcome.interrupted = true;
    if (outcome.store_error.empty()) outcome.store_error = st.error().message;
  }
  if (evaluator.fell_back()) {
    outcome.mode = evaluator.mode();
    request.notice(
        "evaluation: the workers could not evaluate on the GPU, so this run FELL "
        "BACK TO COMPILE-ONLY (see the log above)");
  }
  outcome.summary = summarize_session(*store, outcome, results, unrecorded);
  outcome.episodes = outcome.summary.total.episodes;
  return outcome;
}

}  // namespace pf::agent
