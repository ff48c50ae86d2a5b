// A small SVG line-chart writer (no dependencies) for curves over a numeric x:
// ES_t over tolerance levels, metrics over improvement rounds. Linear axes
// get "nice" ticks (svg_axis.h); a logarithmic y axis gets decades.
// Categories (tasks) are not a series: they go in row charts (svg_rows.h).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "trajectories/svg_axis.h"

namespace pf::traj {

struct ChartSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y); y <= 0 is skipped on a log axis
};

//! A labelled vertical reference line (e.g. the correctness tolerance level).
struct ChartMarker {
  double x = 0;
  std::string label;
};

struct ChartOptions {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_y = true;
  //! Whole-number x values get one tick each (levels, rounds) when few.
  bool integer_x = false;
  //! Text of an x tick instead of the number ("t=-5"); empty = the number.
  std::string x_tick_prefix;
  std::vector<ChartMarker> markers;
  //! Values the linear y axis must include (e.g. 0 and 1 for a share).
  std::optional<double> y_floor, y_ceiling;
  int width = 720;
  int height = 440;
};

std::string line_chart_svg(const std::vector<ChartSeries>& series, const ChartOptions& options);

//! Charts stacked top to bottom in one SVG; each part is (svg text, height).
std::string stack_svg(const std::vector<std::pair<std::string, int>>& parts, int width);

}  // namespace pf::traj
