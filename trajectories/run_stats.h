// Statistics of the episodes in one store (`passforge stats`). Definitions
// (docs/stats.md): an episode's result is its best evaluation that
// counts_as_success; an episode without one scores b (the failure score)
// wherever a score is averaged. Running episodes are counted but not scored.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "trajectories/records.h"

namespace pf::traj {

class TrajectoryReader;

inline constexpr std::array<double, 6> kFastPThresholds = {0, 0.8, 1, 1.2, 1.5, 2};
inline constexpr int kMinLevel = -10;
inline constexpr int kMaxLevel = 4;
inline constexpr size_t kLevels = kMaxLevel - kMinLevel + 1;

//! Quality metrics over a set of scored episodes.
struct Quality {
  int64_t scored = 0;                  // episodes scored (not running)
  int64_t without_success = 0;         // of those, without a counting evaluation
  double mean_best_as = 0;
  double max_best_as = 0;
  double correct_rate = 0;             // best evaluation correct at t = -5
  //! Share of visible variants (of the best evaluations; all of a task's
  //! visible variants for an episode without one) correct and faster than p.
  std::array<double, kFastPThresholds.size()> fast_p{};
  int64_t variants = 0;                // the denominator of fast_p
  std::optional<double> geomean_speedup;  // over correct visible variants
  std::optional<double> hidden_as;        // mean; b for tasks with hidden variants and no success
  std::optional<double> turns_to_first_correct;  // mean over episodes that got there
  int64_t reached_correct = 0;
  //! Mean ES_t of the best evaluations (b at every t without one), t = -10..4.
  std::optional<std::array<double, kLevels>> es_curve;
};

struct TaskStats {
  std::string task_id;
  int64_t episodes = 0;
  Quality quality;
};

//! One GPU's evaluation load over the sessions of a store (GpuUsageRecord
//! rows of one device, summed).
struct GpuStats {
  std::string device;
  int64_t requests = 0;
  double busy_s = 0, wall_s = 0;
  double busy_share = 0;  // busy_s / wall_s
};

struct RunStats {
  std::string label;  // the run directory
  std::vector<std::string> run_ids, models, prompt_variants;
  double failure_score = 0.1;  // b, from the results (else PassNet's default)
  int64_t episodes = 0;
  std::map<std::string, int64_t> status;       // running/finished/interrupted/failed
  std::map<std::string, int64_t> exit_reasons;
  Quality quality;
  std::map<std::string, int64_t> failure_classes;  // over all evaluations
  std::map<std::string, int64_t> hack_flags;       // over all evaluations
  int64_t unstable_evaluations = 0;
  int64_t evaluations_full = 0;          // kind evaluate/submit, mode full
  int64_t evaluations_compile_only = 0;  // kind evaluate/submit, mode compile_only
  int64_t compile_checks = 0;            // kind compile
  int64_t llm_calls = 0;
  double turns_per_episode = 0;
  std::optional<double> prompt_tokens_per_turn, completion_tokens_per_turn, latency_ms_per_turn;
  std::optional<double> wall_hours;  // first episode start to last episode end
  std::optional<double> episodes_per_hour, evaluations_per_hour;
  std::vector<TaskStats> tasks;
  //! Full-mode sessions only: per GPU, and the shared GPU queue's mean depth
  //! (time requests waited / wall time) and maximum.
  std::vector<GpuStats> gpus;
  std::optional<double> gpu_queue_mean;
  int64_t gpu_queue_max = 0;
};

Result<RunStats> compute_stats(TrajectoryReader& reader, const std::string& label);

}  // namespace pf::traj
