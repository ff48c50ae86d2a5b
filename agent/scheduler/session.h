// A session runs the episodes of one or more runs that share one store, one
// evaluation service, the [run] settings (concurrency, samples per task, seed) and
// the [evaluator] section: `passforge run` is a session of one run, an
// experiment's arms are the runs of one session. Each run has its own run
// record, tasks as its episodes see them (its prompts), endpoint and agent
// settings. Episodes are interleaved task, sample, run, so runs compared on a
// task run side by side with the same seeds. Resumable: episodes the store
// has ended (finished or failed) are not run again, unfinished ones continue
// from their last committed turn.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agent/loop/episode.h"
#include "agent/loop/task_context.h"
#include "agent/scheduler/run_setup.h"
#include "agent/scheduler/shard.h"
#include "common/result.h"
#include "config/config.h"
#include "evaluator/protocol/evaluation_service.h"
#include "trajectories/trajectory_store.h"

namespace pf::agent {

struct SessionRun {
  std::string run_id;  // its record must exist in the store
  //! Every run of a session lists the same task ids in the same order.
  std::vector<std::shared_ptr<const TaskContext>> tasks;
  //! llm, prompts, run_id, model and system_prompt; run_session sets the
  //! evaluator, the store and the cancel token.
  EpisodeServices services;
  EpisodeSettings settings;
};

struct SessionContext {
  const Config& config;                  // [run] and [evaluator], shared by every run
  protocol::EvaluationService& service;  // the session's workers and their plan
  traj::TrajectoryStore& store;
  Shard shard;            // the (task, sample) episodes this process runs (run --shard)
  bool terminal = false;  // progress as a live line (else periodic log lines)
  std::function<void(const std::string&)> notice = [](const std::string&) {};
};

struct SessionOutcome {
  traj::EvalMode mode = traj::EvalMode::compile_only;  // compile_only after a fall-back
  bool interrupted = false;
  int64_t failed_episodes = 0;  // endpoint or store failures
  int64_t episodes_run = 0;     // ended in this session
  //! Why the store failed ("" when it did not): the session is then interrupted.
  std::string store_error;
  //! Every planned episode's result (nullopt: not run, cancelled first).
  std::vector<std::optional<EpisodeResult>> results;
};

//! Runs every run's tasks x run.samples_per_task episodes to their end (or
//! until `cancel`) and marks each run record finished or interrupted.
//! Errors: reading or updating the store.
Result<SessionOutcome> run_session(std::vector<SessionRun>& runs, const SessionContext& context,
                                   const llm::CancelToken& cancel);

}  // namespace pf::agent
