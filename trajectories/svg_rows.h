// SVG charts over named categories, one row per category with its name on the
// y axis: horizontal bars (counts per failure class) and a forest plot (a
// dot per task, an interval for a summary row, a zero line), e.g. an A/B
// test's paired per-task differences with the CI of their mean.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pf::traj {

struct RowDatum {
  std::string label;
  double value = 0;
  std::optional<double> lo, hi;  // an interval drawn around the value
  bool summary = false;          // drawn as a diamond, its label in bold, after a rule
};

struct RowChartOptions {
  enum class Style { bars, dots };
  std::string title;
  std::string x_label;
  Style style = Style::bars;
  int width = 760;
};

//! The height the chart of `rows` rows takes (stack_svg needs it).
int row_chart_height(size_t rows);

std::string row_chart_svg(const std::vector<RowDatum>& rows, const RowChartOptions& options);

}  // namespace pf::traj
