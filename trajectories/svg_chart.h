// A small SVG line-chart writer (no dependencies) for ES_t curves: linear x,
// optionally logarithmic y, one polyline per series, axes, ticks and legend.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pf::traj {

struct ChartSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y); y <= 0 is skipped on a log axis
};

struct ChartOptions {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_y = true;
  int width = 720;
  int height = 440;
};

std::string line_chart_svg(const std::vector<ChartSeries>& series, const ChartOptions& options);

//! Escapes &, <, >, " and ' for SVG text and attributes.
std::string xml_escape(const std::string& s);

}  // namespace pf::traj
