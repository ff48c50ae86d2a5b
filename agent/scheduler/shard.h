// Shards of a run (`passforge run --shard K/N`): the run's (task, sample)
// episodes in plan order, episode i belonging to shard i mod N, so the same
// configuration always gives the same partition. Every shard of a run shares
// the run id (episode ids and seeds match an unsharded run) and writes its own
// run directory; `passforge merge` of all shards gives the unsharded store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "config/config.h"
#include "config/config_loader.h"

namespace pf::agent {

struct Shard {
  int index = 0;  // 0 <= index < count
  int count = 1;
};

//! "K/N" with 0 <= K < N.
Result<Shard> parse_shard(std::string_view text);

//! The shard a scheduler's job array assigns to this process, or nullopt
//! outside one: Slurm arrays (SLURM_ARRAY_TASK_ID relative to
//! SLURM_ARRAY_TASK_MIN and _STEP, out of SLURM_ARRAY_TASK_COUNT or
//! _MIN.._MAX) and Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX out of
//! PASSFORGE_SHARDS, the Job's completions).
Result<std::optional<Shard>> shard_from_environment(const EnvLookup& env);

//! Whether the episode at `position` (0-based, plan order) is in the shard.
inline bool in_shard(int64_t position, const Shard& s) {
  return position % s.count == s.index;
}

//! Episodes of a run of `total` that fall in the shard.
int64_t shard_episodes(int64_t total, const Shard& s);

//! The run id every shard of a run derives when run.run_id is empty: from
//! the configuration without its shard keys, so array tasks agree on it.
std::string sharded_run_id(const Config& config);

//! "<run id>-shard-K-of-N", or the run id when unsharded.
std::string shard_dir_name(const std::string& run_id, const Shard& s);

}  // namespace pf::agent
