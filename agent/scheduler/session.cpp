#include "agent/scheduler/session.h"

#include <spdlog/spdlog.h>

#include <map>

#include "agent/scheduler/episode_seed.h"
#include "agent/scheduler/gpu_load.h"
#include "agent/scheduler/progress.h"
#include "agent/scheduler/scheduler.h"
#include "common/check.h"
#include "trajectories/ids.h"
#include "trajectories/trajectory_reader.h"

namespace pf::agent {
namespace {

// The session's episodes, and how many of them an earlier session ended.
struct EpisodePlan {
  std::vector<EpisodeJob> jobs;
  size_t already_done = 0;
  size_t resumed = 0;
  size_t total = 0;
};

Result<EpisodePlan> plan_episodes(const std::vector<SessionRun>& runs, const RunConfig& config,
                                  const Shard& shard, traj::TrajectoryStore& store) {
  std::map<std::string, traj::RunState> known;  // episode id -> state
  PF_ASSIGN(auto reader, store.reader());
  for (const auto& run : runs) {
    traj::EpisodeFilter filter;
    filter.run_id = run.run_id;
    PF_ASSIGN(auto episodes, reader.episodes(filter));
    for (const auto& e : episodes) known[e.id] = e.status;
  }
  EpisodePlan plan;
  const size_t tasks = runs.front().tasks.size();
  for (size_t t = 0; t < tasks; ++t) {
    for (int64_t s = 0; s < config.samples_per_task; ++s) {
      if (!shard.owns(static_cast<int64_t>(t) * config.samples_per_task + s)) continue;
      for (const auto& run : runs) {
        PF_CHECK(run.tasks.size() == tasks);
        ++plan.total;
        EpisodeJob job;
        job.spec.task = run.tasks[t];
        job.spec.sample = s;
        job.spec.seed = episode_seed(config.seed, run.tasks[t]->task.id, s);
        job.services = &run.services;
        job.settings = &run.settings;
        auto it = known.find(traj::episode_id(run.run_id, run.tasks[t]->task.id, s));
        if (it != known.end()) {
          if (it->second == traj::RunState::finished || it->second == traj::RunState::failed) {
            ++plan.already_done;
            continue;
          }
          job.spec.resume = true;
          ++plan.resumed;
        }
        plan.jobs.push_back(std::move(job));
      }
    }
  }
  return plan;
}

}  // namespace

Result<SessionOutcome> run_session(std::vector<SessionRun>& runs, const SessionContext& context,
                                   const llm::CancelToken& cancel) {
  PF_CHECK(!runs.empty());
  SessionOutcome outcome;
  EvaluatorClient evaluator(context.service);
  outcome.mode = evaluator.mode();
  for (auto& run : runs) {
    run.services.evaluator = &evaluator;
    run.services.store = &context.store;
    run.services.cancel = &cancel;
  }
  PF_ASSIGN(auto plan, plan_episodes(runs, context.config.run, context.shard, context.store));
  if (context.shard.sharded()) {
    context.notice("shard " + std::to_string(context.shard.index) + " of " +
                   std::to_string(context.shard.count) + " (" + context.shard.source +
                   "): " + std::to_string(plan.total) + " episodes of the run");
  }
  if (plan.already_done > 0 || plan.resumed > 0) {
    context.notice("resuming " + std::to_string(plan.jobs.size()) + " of " +
                   std::to_string(plan.total) + " episodes (" + std::to_string(plan.already_done) +
                   " ended earlier)");
  }

  ProgressTracker progress(plan.total, plan.already_done, outcome.mode);
  GpuLoadWindow gpu_load([&service = context.service] { return service.load(); });
  if (outcome.mode == traj::EvalMode::full) progress.set_load_text([&] { return gpu_load.text(); });
  std::vector<std::optional<EpisodeResult>> results;
  {
    ProgressPrinter printer(progress, context.terminal,
                            std::chrono::milliseconds(context.terminal ? 500 : 30'000));
    results = run_episodes(plan.jobs, context.config.run.concurrency, &progress);
  }
  for (const auto& r : results) {
    if (!r || r->exit_reason == ExitReason::interrupted) {
      outcome.interrupted = true;
      continue;
    }
    ++outcome.episodes_run;
    if (r->exit_reason == ExitReason::endpoint_error || r->exit_reason == ExitReason::store_error) {
      ++outcome.failed_episodes;
    }
  }
  if (cancel.cancelled()) outcome.interrupted = true;
  // An episode the store could not record is resumable, not done: the
  // session is interrupted, whatever else happened.
  for (const auto& r : results) {
    if (r && r->exit_reason == ExitReason::store_error) {
      outcome.interrupted = true;
      if (outcome.store_error.empty()) outcome.store_error = r->detail;
    }
  }
  for (const auto& run : runs) {
    const auto state = outcome.interrupted ? traj::RunState::interrupted : traj::RunState::finished;
    if (auto st = context.store.finish_run(run.run_id, state); !st.ok()) {
      spdlog::error("marking run {} {} failed: {}", run.run_id,
                    outcome.interrupted ? "interrupted" : "finished", st.error().message);
      outcome.interrupted = true;
      if (outcome.store_error.empty()) outcome.store_error = st.error().message;
    }
  }
  if (evaluator.fell_back()) {
    outcome.mode = evaluator.mode();
    context.notice(
        "evaluation: the workers could not evaluate on the GPU, so this session FELL BACK TO "
        "COMPILE-ONLY (see the log above)");
  }
  outcome.results = std::move(results);
  return outcome;
}

}  // namespace pf::agent
