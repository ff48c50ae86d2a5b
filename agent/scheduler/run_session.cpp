#include "agent/scheduler/run_session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "agent/llm/llm_client.h"
#include "agent/loop/episode.h"
#include "agent/loop/task_context.h"
#include "agent/scheduler/demo_replay.h"
#include "agent/scheduler/run_setup.h"
#include "agent/scheduler/run_tasks.h"
#include "agent/scheduler/session.h"
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

// What `passforge stats` shows of this session's GPUs; a store failure here
// costs only that, not the run.
void record_gpu_usage(traj::TrajectoryStore& store, const std::string& run_id,
                      const std::string& session_started_at, const sandbox::PoolLoad& load) {
  for (const auto& slot : load.slots) {
    traj::GpuUsageRecord u;
    u.run_id = run_id;
    u.session_started_at = session_started_at;
    u.device = slot.device;
    u.wall_s = load.wall_s;
    u.busy_s = slot.busy_s;
    u.requests = static_cast<int64_t>(slot.requests);
    u.queue_wait_s = load.queue_wait_s;
    u.max_queue = static_cast<int64_t>(load.max_waiting);
    if (auto st = store.record_gpu_usage(u); !st.ok()) {
      spdlog::warn("recording the load of GPU {}: {}", slot.device, st.error().message);
    }
  }
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

Result<fs::path> new_run_dir(const Config& config, const Shard& shard, const EnvLookup& env) {
  if (!shard.sharded()) {
    return fs::path(config.run.output_dir) /
           (config.run.run_id.empty() ? traj::make_run_id() : config.run.run_id);
  }
  std::string id = config.run.run_id.empty() ? shard_job_run_id(env) : config.run.run_id;
  if (id.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "a sharded run needs one run id for all its shards: set run.run_id "
                      "(--set run.run_id=NAME), or run inside a Slurm array job or a Kubernetes "
                      "Indexed Job with PASSFORGE_JOB_NAME set");
  }
  return fs::path(config.run.output_dir) / id / shard.dir_name();
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
    const int64_t episodes =
        static_cast<int64_t>(tasks.size()) * std::max<int64_t>(0, config.run.samples_per_task);
    PF_ASSIGN(auto finished,
              finished_summary(reader, outcome.run_id,
                               static_cast<size_t>(request.shard.share_of(episodes))));
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
    PF_ASSIGN(outcome.run_dir, new_run_dir(config, request.shard, [](const char* name) {
                return static_cast<const char*>(std::getenv(name));
              }));
    outcome.run_id = request.shard.sharded() ? outcome.run_dir.parent_path().filename().string()
                                             : outcome.run_dir.filename().string();
    std::error_code ec;
    if (fs::exists(traj::store_path(outcome.run_dir), ec)) {
      return make_error(ErrorCode::invalid_argument,
                        "run " + outcome.run_id + " already exists in " + outcome.run_dir.string() +
                            "; continue it with --resume " + outcome.run_dir.string() +
                            " or choose another run.run_id");
    }
  }

  // Evaluation mode.
  PF_ASSIGN(auto gpus, protocol::plan_evaluation(config.evaluator));
  outcome.mode = to_record_mode(gpus.mode);
  if (gpus.mode == protocol::EvalMode::full) {
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
  std::optional<DemoReplay> demo;
  if (llm_options.base_url.empty()) {
    PF_ASSIGN(demo, start_demo_replay(prompts_dir, config.run.concurrency));
    llm_options = demo->client_options(std::move(llm_options), config.run.concurrency);
    request.notice(
        "endpoint: no endpoint.base_url configured, so this run REPLAYS RECORDED "
        "ANSWERS from " +
        demo->script.string() + " (served on " + demo->server->base_url() +
        "); it does not ask a model. Set endpoint.base_url "
        "and endpoint.model (or OPENAI_BASE_URL / OPENAI_MODEL) to ask one.");
  } else {
    request.notice("endpoint: " + llm_options.base_url + ", model " + llm_options.model);
  }
  PF_ASSIGN(auto client, llm::LlmClient::create(llm_options));

  PF_ASSIGN(auto service,
            protocol::EvaluationService::start(protocol::service_options(config, gpus)));

  if (!resuming) {
    PF_ASSIGN(store, traj::TrajectoryStore::open(outcome.run_dir,
                                                 traj::TrajectoryStore::OpenMode::create));
    traj::RunRecord run = new_run_record(outcome.run_id, config, request.config_toml,
                                         demo ? demo->record() : llm_options.base_url,
                                         llm_options.model, prompts, gpus, contexts);
    PF_TRY(store->create_run(run));
    for (const auto& ctx : contexts) PF_TRY(store->upsert_task(ctx->record));
    if (request.shard.sharded()) PF_TRY(write_shard_file(outcome.run_dir, request.shard));
  }
  request.notice("run " + outcome.run_id + ": " + traj::store_path(outcome.run_dir).string());

  // Episodes.
  std::vector<SessionRun> runs(1);
  runs[0].run_id = outcome.run_id;
  runs[0].tasks = std::move(contexts);
  runs[0].settings = episode_settings(config);
  runs[0].services.llm = client.get();
  runs[0].services.prompts = &prompts;
  runs[0].services.run_id = outcome.run_id;
  runs[0].services.model = llm_options.model;
  PF_ASSIGN(runs[0].services.system_prompt, render_system_prompt(prompts, config, outcome.mode));
  SessionContext session{.config = config,
                         .service = *service,
                         .store = *store,
                         .shard = request.shard,
                         .terminal = request.terminal,
                         .notice = request.notice};
  const std::string session_started_at = traj::now_iso8601();
  PF_ASSIGN(auto ran, run_session(runs, session, cancel));
  if (ran.mode == traj::EvalMode::full) {
    record_gpu_usage(*store, outcome.run_id, session_started_at, service->load());
  }
  outcome.mode = ran.mode;
  outcome.interrupted = ran.interrupted;
  outcome.failed_episodes = ran.failed_episodes;
  outcome.store_error = ran.store_error;
  outcome.evaluations = service->stats();
  if (const auto& ev = outcome.evaluations;
      ev.unavailable + ev.infra_retries + ev.worker_faults > 0) {
    request.notice(evaluation_faults_line(ev));
  }
  std::vector<const EpisodeResult*> unrecorded;
  for (const auto& r : ran.results) {
    if (r && r->exit_reason == ExitReason::store_error) unrecorded.push_back(&*r);
  }
  outcome.summary = summarize_session(*store, outcome, ran.results, unrecorded);
  outcome.episodes = outcome.summary.total.episodes;
  return outcome;
}

}  // namespace pf::agent
