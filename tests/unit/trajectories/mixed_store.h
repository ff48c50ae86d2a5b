// A store mixing every kind of episode the verified rule (issue 16) tells
// apart, written through the real store API with full-mode results shaped
// as a GPU run writes them (variants with correct, first_passing_level,
// failure_class, unstable; hidden variants included). Shared by the export,
// DPO and experiment tests.
#pragma once

#include <string>

#include "trajectories/trajectory_store.h"

namespace pf::traj::testing {

inline constexpr const char* kMixedRun = "20250101T000000Z-0000f00d";

//! The episode id of `task`'s sample in the mixed run.
std::string mixed_episode(const std::string& task, int sample);

//! Tasks "a" (tools mode), "b" (chat mode), "c" (tools mode), each with two
//! visible variants v0, v1 and one hidden v2. Episodes:
//!   a:0 verified: evaluate (AS 0.9, all correct), submit (AS 1.5, all
//!       correct), then a closing assistant message after the submit
//!   a:1 incorrect but AS > 0.1: submit AS 1.59, v1 wrong (correct_rate 0.5)
//!   a:2 hidden variant wrong: submit AS 1.2, v2 (hidden) wrong
//!   a:3 flagged: submit AS 2.0 correct, hack flag timer_read
//!   a:4 unstable: submit AS 1.3 correct, v0 unstable
//!   a:5 compile-only: submit in compile_only mode (no AS)
//!   a:6 clean evaluate (AS 1.4) but the final submit is wrong (AS 1.1)
//!   a:7 no submit: one clean evaluate (AS 1.6)
//!   a:8 still running (a clean submit, AS 1.7, not finished)
//!   a:9 verified only at PyTorch's level: v1's outputs first pass at t = -3
//!       (failure_class accuracy) and the levels file lists a/v1 at -3
//!   b:0, b:1 verified with the same final workspace (AS 1.3, 1.1)
//!   c:0 verified (AS 1.05); c:1 hidden variant unstable (AS 1.2)
void write_mixed_store(TrajectoryStore& store);

//! A levels file (tests/data/pytorch_levels.json format) listing a/v1 at -3.
std::string mixed_levels_json();

}  // namespace pf::traj::testing
