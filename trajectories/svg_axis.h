// Axis arithmetic shared by the SVG charts: "nice" tick steps (1, 2 or 5
// times a power of ten) so labels read 0.2, 0.4 rather than 0.337504, and the
// number formatting of coordinates and labels.
#pragma once

#include <string>
#include <vector>

namespace pf::traj {

struct AxisTicks {
  double lo = 0, hi = 1;  // the axis range, widened to whole steps
  double step = 0.2;
  int decimals = 1;            // digits after the point every label needs
  std::vector<double> values;  // lo, lo + step, ..., hi
};

//! About `target` intervals covering [lo, hi]; an empty range is widened.
AxisTicks nice_ticks(double lo, double hi, int target = 5);

//! v with `decimals` digits after the point; "-0" is printed as "0".
std::string tick_text(double v, int decimals);

//! A coordinate with two decimals (SVG attributes).
std::string svg_num(double v);

//! Escapes &, <, >, " and ' for SVG text and attributes.
std::string xml_escape(const std::string& s);

//! The opening <svg> element with a white background.
std::string svg_open(int width, int height);

}  // namespace pf::traj
