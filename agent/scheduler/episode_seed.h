// Deterministic per-episode seeds: the same (run seed, task, sample) always
// gives the same seed, on every machine, so a rerun or a resumed run repeats
// its sampling where the endpoint honours `seed`.
#pragma once

#include <cstdint>
#include <string_view>

namespace pf::agent {

//! The first 31 bits of sha256("<run seed>/<task id>/<sample>"): positive and
//! within int32, which every endpoint accepts.
int64_t episode_seed(int64_t run_seed, std::string_view task_id, int64_t sample);

}  // namespace pf::agent
