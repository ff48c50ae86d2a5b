// The read side of the trajectory store. A reader owns its own read-only
// connection (WAL: it never blocks the writer and sees committed turns only);
// use one reader per thread. snapshot() makes several queries see the same
// committed state, e.g. while a run is still writing.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "trajectories/database.h"
#include "trajectories/records.h"

namespace pf::traj {

struct EpisodeFilter {
  std::string run_id;   // "" = any
  std::string task_id;  // "" = any
  std::optional<RunState> status;
};

class TrajectoryReader {
 public:
  //! Opens `<run_dir>/passforge.db` (or a .db path). A database written by an
  //! older passforge is migrated forward first (through a short-lived writer
  //! connection); a newer one is refused.
  static Result<TrajectoryReader> open(const std::filesystem::path& run_dir_or_db);

  Result<int> schema_version();
  Result<std::vector<RunRecord>> runs();
  Result<std::vector<TaskRecord>> tasks();
  Result<std::vector<EpisodeRecord>> episodes(const EpisodeFilter& filter = {});
  Result<EpisodeRecord> episode(const std::string& id);
  //! In seq order.
  Result<std::vector<MessageRecord>> messages(const std::string& episode_id);
  Result<std::vector<LlmCallRecord>> llm_calls(const std::string& episode_id);
  //! Every LLM call of the database without the raw request/response bodies
  //! (left empty): status, attempts, latency and tokens for statistics.
  Result<std::vector<LlmCallRecord>> llm_call_summaries();
  //! Endpoint calls of the episode that failed for good, oldest first.
  Result<std::vector<FailedLlmCallRecord>> failed_llm_calls(const std::string& episode_id);
  //! Every session's GPU worker loads, by run, session and device.
  Result<std::vector<GpuUsageRecord>> gpu_usage();
  //! In (turn, id) order; "" = every evaluation of the database.
  Result<std::vector<EvaluationRecord>> evaluations(const std::string& episode_id);
  Result<std::string> artifact(const std::string& sha256);
  //! The files of a workspace manifest artifact.
  Result<Workspace> workspace(const std::string& manifest_sha256);
  //! Running or interrupted episodes with their last committed turn (--resume).
  Result<std::vector<ResumePoint>> unfinished_episodes();

  //! Runs fn inside one read transaction (one consistent snapshot).
  Status snapshot(const std::function<Status()>& fn);

  //! PRAGMA integrity_check and foreign_key_check; the problems found, if any.
  Status check_integrity();

  const std::filesystem::path& path() const { return db_.path(); }

 private:
  explicit TrajectoryReader(Database db) : db_(std::move(db)) {}
  Database db_;
};

}  // namespace pf::traj
