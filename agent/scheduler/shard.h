// Shards split one run's episodes over several processes (Slurm array tasks,
// Kubernetes Indexed Job pods, machines started by hand). The episodes of a
// run are its (task, sample) pairs in the order the run lists them; shard K
// of N owns every N-th of them starting at K, so the same configuration always
// gives the same partition and every shard gets a near-equal share of each
// task. All shards of a run share its id (so episode ids and seeds are those
// of the unsharded run) and each writes `<output_dir>/<run-id>/shard-K-of-N/`;
// `passforge merge --out <output_dir>/<run-id> <output_dir>/<run-id>/shard-*`
// then gives the unsharded run's store.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "common/result.h"

namespace pf::agent {

struct Shard {
  int64_t index = 0;   // K, 0-based
  int64_t count = 1;   // N; 1 = the whole run
  std::string source;  // "--shard", "slurm", "kubernetes" (for messages)

  bool sharded() const { return count > 1; }
  //! Whether the episode at `position` of the run's (task, sample) order is this shard's.
  bool owns(int64_t position) const { return position % count == index; }
  //! How many of `total` episodes this shard owns.
  int64_t share_of(int64_t total) const;
  //! "shard-K-of-N": the shard's directory inside the run's directory.
  std::string dir_name() const;
};

//! Reads an environment variable; null when unset (tests pass their own).
using EnvLookup = std::function<const char*(const char*)>;

//! `spec` is "K/N" (0 <= K < N) or "env": the scheduler's environment —
//! a Slurm job array (SLURM_ARRAY_TASK_ID, with SLURM_ARRAY_TASK_COUNT or
//! SLURM_ARRAY_TASK_MIN/MAX) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX
//! with the shard count in PASSFORGE_SHARDS, since a pod cannot read its Job's
//! `completions`). Errors say which variable is missing or malformed.
Result<Shard> parse_shard(std::string_view spec, const EnvLookup& env);

//! The run id all shards of a job share when `run.run_id` is unset: from the
//! scheduler's job ("slurm-<SLURM_ARRAY_JOB_ID>", "k8s-<PASSFORGE_JOB_NAME>");
//! "" when the environment names no job.
std::string shard_job_run_id(const EnvLookup& env);

//! `<run_dir>/shard.json`, written when a shard's run starts and read on resume.
Status write_shard_file(const std::filesystem::path& run_dir, const Shard& shard);
//! The shard a run directory holds; Shard{} (the whole run) when it has no shard file.
Result<Shard> read_shard_file(const std::filesystem::path& run_dir);

}  // namespace pf::agent
