// The writer side of the trajectory store: one SQLite database per run
// directory (`runs/<run-id>/passforge.db`, WAL). Each writer method is one
// transaction, so a killed process loses at most the turn in flight.
//
// Thread safety: one TrajectoryStore owns the single writer connection and
// serialises its methods with an internal mutex, so the agent's episode
// threads may share one instance. Readers (TrajectoryReader) use their own
// connections, never block the writer and see only committed turns.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "trajectories/database.h"
#include "trajectories/records.h"

namespace pf::traj {

class TrajectoryReader;

inline constexpr const char* kStoreFileName = "passforge.db";

//! `<dir>/passforge.db` for a run directory; a path ending in ".db" as is.
std::filesystem::path store_path(const std::filesystem::path& run_dir_or_db);

class TrajectoryStore {
 public:
  enum class OpenMode {
    create,    // create the directory and database when missing
    existing,  // the database must exist
  };

  //! Opens the writer connection and applies pending migrations.
  static Result<std::unique_ptr<TrajectoryStore>> open(const std::filesystem::path& run_dir_or_db,
                                                       OpenMode mode);

  Status create_run(const RunRecord& run);
  Status finish_run(const std::string& run_id, RunState status);
  //! Inserts the task or replaces its definition.
  Status upsert_task(const TaskRecord& task);

  //! Inserts a running episode and its initial messages (turn 0). An empty
  //! id is derived with episode_id(); the id is returned.
  Result<std::string> start_episode(const EpisodeRecord& episode,
                                    std::vector<MessageRecord> initial_messages);

  //! Commits one turn atomically. turn.turn must be the last committed turn
  //! + 1 (a replayed or duplicated turn is refused). Maintains the episode's
  //! turns, token counts and best evaluation (highest AS that
  //! counts_as_success without flags); an uncharged turn is recorded as such.
  Result<TurnCommit> append_turn(TurnRecord turn);

  //! Sets the final status (not `running`), exit reason and wall time.
  Status finish_episode(const EpisodeFinish& finish);

  //! Records an endpoint call that failed for good (attempts and last error).
  Status record_failed_llm_call(const FailedLlmCallRecord& call);
  //! Records (or replaces) one GPU worker's load of one session.
  Status record_gpu_usage(const GpuUsageRecord& usage);

  //! Marks an unfinished episode running again and says where it continues.
  Result<ResumePoint> resume_episode(const std::string& episode_id);

  //! A reader on its own connection to the same database.
  Result<TrajectoryReader> reader() const;

  const std::filesystem::path& path() const { return path_; }

  //! The writer connection, for tools that run their own transactions
  //! (merge). Only while no other thread uses this store.
  Database& database_unlocked() { return db_; }

 private:
  TrajectoryStore(Database db, std::filesystem::path path)
      : db_(std::move(db)), path_(std::move(path)) {}
  Result<std::string> put_artifact(std::string_view content);
  Result<std::string> put_workspace(const Workspace& ws);
  Status insert_messages(const std::string& episode_id, int64_t turn, int64_t first_seq,
                         std::vector<MessageRecord>& messages);

  mutable std::mutex mu_;
  Database db_;
  std::filesystem::path path_;
};

//! Shape checks on a message before it is stored (roles, OpenAI tool calls
//! with string arguments, tool_call_id on tool messages).
Status validate_message(const MessageRecord& m);

}  // namespace pf::traj
