// The report of an A/B experiment, read from its store: per-arm metrics,
// paired per-task differences of every arm against the first (B - A) with a
// bootstrap CI, sign test and Wilcoxon signed-rank p, and a verdict in words
// (docs/ab.md). Terminal table, JSON and an SVG chart.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "experiments/episode_metrics.h"
#include "experiments/paired_stats.h"
#include "trajectories/trajectory_reader.h"

namespace pf::experiments {

//! Effect size assumed in the sample-size sentence when the observed mean
//! difference is 0 (in score units: AS or compile share).
inline constexpr double kDefaultEffect = 0.05;
inline constexpr double kAlpha = 0.05;

struct ArmRef {
  std::string name;
  std::string run_id;
};

struct ArmReport {
  ArmRef ref;
  std::string prompt_variant, model;
  ArmMetrics metrics;
  std::map<std::string, double> task_scores;  // task -> mean score over its samples
};

struct PairedComparison {
  std::string a, b;
  std::vector<std::pair<std::string, double>> differences;  // task, b - a
  double mean = 0, sd = 0;
  std::optional<Interval> ci;
  SignTestResult sign;
  WilcoxonResult wilcoxon;
  bool significant = false;
  double effect = 0;  // what the sample-size estimate assumes
  std::optional<int64_t> tasks_needed;
  std::string verdict;
};

struct AbReport {
  std::string id;
  traj::EvalMode mode = traj::EvalMode::compile_only;
  std::vector<std::string> tasks;  // in report order
  std::vector<ArmReport> arms;
  std::vector<PairedComparison> comparisons;  // arms[i] vs arms[0], i >= 1

  std::string table() const;
  nlohmann::json to_json() const;
  std::string svg() const;
};

Result<AbReport> build_ab_report(traj::TrajectoryReader& reader, const std::string& id,
                                 const std::vector<ArmRef>& arms);

//! Paired statistics and the verdict for per-task differences (b - a).
PairedComparison compare(const std::string& a, const std::string& b,
                         std::vector<std::pair<std::string, double>> differences,
                         const char* score);

}  // namespace pf::experiments
