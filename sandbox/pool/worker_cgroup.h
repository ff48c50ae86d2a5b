// One worker's own cgroup v2 child: memory.max from evaluator.worker_memory_mb,
// memory.swap.max = 0 (an anonymous-memory bomb cannot spill into swap and
// slow the host down instead of failing) and memory.oom.group = 1 (the kernel
// ends the whole worker, not one of its threads). Unlike RLIMIT_DATA it
// counts only memory actually charged, so it also bounds GPU workers, whose
// CUDA driver reserves huge private address ranges. Removed (rmdir) when the
// object ends, which must be after the worker was reaped: a populated cgroup
// cannot be removed.
// Not thread-safe: owned by the WorkerProcess it holds.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "common/result.h"

namespace pf::sandbox {

//! Writes `text` to a cgroup interface file (one write, as the kernel wants
//! it). Errors name the file and errno. Opens with O_CREAT so a plain
//! directory tree can stand in for cgroupfs in tests; on cgroupfs the files
//! exist already and O_CREAT changes nothing.
Status write_cgroup_file(const std::filesystem::path& file, const std::string& text);

class WorkerCgroup {
 public:
  //! mkdir `parent`/`name` (memory must be enabled in the parent's
  //! cgroup.subtree_control) and sets its limits. Fails, naming the file,
  //! when memory.max cannot be set; a missing memory.swap.max (swap
  //! accounting off) or memory.oom.group is noted in setup_notes().
  static Result<std::unique_ptr<WorkerCgroup>> create(const std::filesystem::path& parent,
                                                      const std::string& name,
                                                      uint64_t memory_max_bytes);
  ~WorkerCgroup();
  WorkerCgroup(const WorkerCgroup&) = delete;
  WorkerCgroup& operator=(const WorkerCgroup&) = delete;

  //! Moves process `pid` (all its threads) into the cgroup.
  Status add(pid_t pid) const;
  //! The `oom_kill` count of memory.events: > 0 once the kernel's OOM killer
  //! ended a process here because of memory.max. 0 when unreadable.
  uint64_t oom_kills() const;

  const std::filesystem::path& dir() const { return dir_; }
  uint64_t memory_max_bytes() const { return memory_max_bytes_; }
  const std::string& setup_notes() const { return notes_; }

 private:
  WorkerCgroup(std::filesystem::path dir, uint64_t memory_max_bytes)
      : dir_(std::move(dir)), memory_max_bytes_(memory_max_bytes) {}

  std::filesystem::path dir_;
  uint64_t memory_max_bytes_;
  std::string notes_;
};

//! The `key value` lines of a cgroup file such as memory.events: the value
//! of `key`, 0 when absent.
uint64_t cgroup_counter(const std::string& text, const std::string& key);

}  // namespace pf::sandbox
