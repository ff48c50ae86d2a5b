#include "trajectories/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pf::traj {
namespace {

constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                   "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string power_of_ten_label(int exponent) {
  if (exponent >= 0 && exponent <= 4) return tick_text(std::pow(10.0, exponent), 0);
  if (exponent < 0 && exponent >= -3) return tick_text(std::pow(10.0, exponent), -exponent);
  return "1e" + std::to_string(exponent);
}

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return !(lo <= hi); }
};

}  // namespace

std::string line_chart_svg(const std::vector<ChartSeries>& series, const ChartOptions& o) {
  const double left = 70, right = 20 + 170, top = 40, bottom = 55;
  const double pw = o.width - left - right, ph = o.height - top - bottom;
  auto ty = [&](double y) { return o.log_y ? std::log10(y) : y; };
  Range xr, yr;
  for (const auto& s : series) {
    for (auto [x, y] : s.points) {
      if (o.log_y && !(y > 0)) continue;
      xr.add(x);
      yr.add(ty(y));
    }
  }
  if (xr.empty()) xr = {0, 1}, yr = {0, 1};
  for (const auto& m : o.markers) xr.add(m.x);
  if (!o.log_y) {
    if (o.y_floor) yr.add(*o.y_floor);
    if (o.y_ceiling) yr.add(*o.y_ceiling);
  }

  // x: one tick per whole number when asked and few, else nice steps.
  AxisTicks xt;
  if (o.integer_x && xr.hi - xr.lo <= 20) {
    xt.lo = std::floor(xr.lo);
    xt.hi = std::max(std::ceil(xr.hi), xt.lo + 1);
    xt.step = 1;
    xt.decimals = 0;
    for (double x = xt.lo; x <= xt.hi + 1e-9; x += 1) xt.values.push_back(x);
  } else {
    xt = nice_ticks(xr.lo, xr.hi);
  }
  AxisTicks yt;
  std::vector<std::string> y_labels;
  if (o.log_y) {
    yt.lo = std::floor(yr.lo);
    yt.hi = std::max(std::ceil(yr.hi), yt.lo + 1);
    for (double v = yt.lo; v <= yt.hi + 1e-9; v += 1) {
      yt.values.push_back(v);
      y_labels.push_back(power_of_ten_label(static_cast<int>(std::lround(v))));
    }
  } else {
    yt = nice_ticks(yr.lo, yr.hi);
    for (double v : yt.values) y_labels.push_back(tick_text(v, yt.decimals));
  }
  auto px = [&](double x) { return left + (x - xt.lo) / (xt.hi - xt.lo) * pw; };
  auto py = [&](double v) { return top + ph - (v - yt.lo) / (yt.hi - yt.lo) * ph; };

  std::string svg = svg_open(o.width, o.height);
  svg += "<text x=\"" + svg_num(left + pw / 2) +
         "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" + xml_escape(o.title) + "</text>\n";
  for (size_t i = 0; i < yt.values.size(); ++i) {
    double v = yt.values[i];
    svg += "<line x1=\"" + svg_num(left) + "\" y1=\"" + svg_num(py(v)) + "\" x2=\"" +
           svg_num(left + pw) + "\" y2=\"" + svg_num(py(v)) + "\" stroke=\"#ddd\"/>\n";
    svg += "<text class=\"y-tick\" x=\"" + svg_num(left - 6) + "\" y=\"" + svg_num(py(v) + 4) +
           "\" text-anchor=\"end\">" + y_labels[i] + "</text>\n";
  }
  for (double x : xt.values) {
    svg += "<line x1=\"" + svg_num(px(x)) + "\" y1=\"" + svg_num(top + ph) + "\" x2=\"" +
           svg_num(px(x)) + "\" y2=\"" + svg_num(top + ph + 5) + "\" stroke=\"#333\"/>\n";
    svg += "<text class=\"x-tick\" x=\"" + svg_num(px(x)) + "\" y=\"" + svg_num(top + ph + 18) +
           "\" text-anchor=\"middle\">" + xml_escape(o.x_tick_prefix) + tick_text(x, xt.decimals) +
           "</text>\n";
  }
  svg += "<rect x=\"" + svg_num(left) + "\" y=\"" + svg_num(top) + "\" width=\"" + svg_num(pw) +
         "\" height=\"" + svg_num(ph) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  for (const auto& m : o.markers) {
    svg += "<line x1=\"" + svg_num(px(m.x)) + "\" y1=\"" + svg_num(top) + "\" x2=\"" +
           svg_num(px(m.x)) + "\" y2=\"" + svg_num(top + ph) +
           "\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n";
    svg += "<text class=\"marker\" x=\"" + svg_num(px(m.x) + 4) + "\" y=\"" + svg_num(top + 14) +
           "\" fill=\"#555\">" + xml_escape(m.label) + "</text>\n";
  }
  svg += "<text x=\"" + svg_num(left + pw / 2) + "\" y=\"" + svg_num(o.height - 12.0) +
         "\" text-anchor=\"middle\">" + xml_escape(o.x_label) + "</text>\n";
  svg += "<text transform=\"translate(16," + svg_num(top + ph / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + xml_escape(o.y_label) +
         (o.log_y ? " (log scale)" : "") + "</text>\n";
  for (size_t i = 0; i < series.size(); ++i) {
    const char* color = kColors[i % (sizeof kColors / sizeof *kColors)];
    std::string pts;
    std::string dots;
    for (auto [x, y] : series[i].points) {
      if (o.log_y && !(y > 0)) continue;
      pts += (pts.empty() ? "" : " ") + svg_num(px(x)) + "," + svg_num(py(ty(y)));
      dots += "<circle cx=\"" + svg_num(px(x)) + "\" cy=\"" + svg_num(py(ty(y))) +
              "\" r=\"3\" fill=\"" + color + "\"/>\n";
    }
    svg += "<polyline fill=\"none\" stroke=\"" + std::string(color) +
           "\" stroke-width=\"2\" points=\"" + pts + "\"/>\n" + dots;
    double ly = top + 14 + 18.0 * static_cast<double>(i);
    svg += "<line x1=\"" + svg_num(left + pw + 12) + "\" y1=\"" + svg_num(ly - 4) + "\" x2=\"" +
           svg_num(left + pw + 32) + "\" y2=\"" + svg_num(ly - 4) + "\" stroke=\"" + color +
           "\" stroke-width=\"2\"/>\n";
    svg += "<text class=\"legend\" x=\"" + svg_num(left + pw + 36) + "\" y=\"" + svg_num(ly) +
           "\">" + xml_escape(series[i].name) + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

std::string stack_svg(const std::vector<std::pair<std::string, int>>& parts, int width) {
  int total = 0;
  for (const auto& p : parts) total += p.second;
  std::string svg = svg_open(width, total);
  int y = 0;
  for (const auto& [text, height] : parts) {
    // A nested <svg> is placed by x/y attributes on its root element.
    std::string part = text;
    auto root = part.find("<svg ");
    if (root != std::string::npos)
      part.insert(root + 5, "x=\"0\" y=\"" + std::to_string(y) + "\" ");
    svg += part;
    y += height;
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace pf::traj
