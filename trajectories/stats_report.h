// Renderings of RunStats: a terminal table (one column per run directory, so
// `passforge stats A B` compares side by side), JSON, and the ES_t SVG.
#pragma once

#include <string>
#include <vector>

#include "trajectories/records.h"
#include "trajectories/run_stats.h"
#include "trajectories/svg_chart.h"

namespace pf::traj {

Json to_json(const RunStats& s);
std::string stats_table(const std::vector<RunStats>& runs);
//! Loud lines for data that must not be mistaken for measurements
//! (compile-only evaluations, unfinished episodes, flagged evaluations).
std::vector<std::string> stats_warnings(const RunStats& s);
//! Mean ES_t curve of each run (t on x, ES_t on a log y axis).
std::string es_curve_svg(const std::vector<RunStats>& runs);
//! ES_t curves over the tolerance levels: one tick per level and the level
//! correctness is judged at (t = -5) marked and labelled.
std::string es_curve_chart(const std::vector<ChartSeries>& series, const std::string& title);

}  // namespace pf::traj
