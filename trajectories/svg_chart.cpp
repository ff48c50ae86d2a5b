#include "trajectories/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pf::traj {
namespace {

constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                   "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string tick_label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string line_chart_svg(const std::vector<ChartSeries>& series, const ChartOptions& o) {
  const double left = 70, right = 20 + 170, top = 40, bottom = 55;
  const double pw = o.width - left - right, ph = o.height - top - bottom;
  double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin;
  double ymin = xmin, ymax = -xmin;
  auto ty = [&](double y) { return o.log_y ? std::log10(y) : y; };
  for (const auto& s : series) {
    for (auto [x, y] : s.points) {
      if (o.log_y && !(y > 0)) continue;
      xmin = std::min(xmin, x);
      xmax = std::max(xmax, x);
      ymin = std::min(ymin, ty(y));
      ymax = std::max(ymax, ty(y));
    }
  }
  if (!std::isfinite(xmin)) xmin = 0, xmax = 1, ymin = 0, ymax = 1;
  if (o.log_y) {
    ymin = std::floor(ymin);
    ymax = std::ceil(ymax);
  }
  if (xmax == xmin) xmax = xmin + 1;
  if (ymax == ymin) ymax = ymin + 1;
  auto px = [&](double x) { return left + (x - xmin) / (xmax - xmin) * pw; };
  auto py = [&](double v) { return top + ph - (v - ymin) / (ymax - ymin) * ph; };

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(o.width) + "\" height=\"" + std::to_string(o.height) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + num(left + pw / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" +
         xml_escape(o.title) + "</text>\n";
  svg += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw) +
         "\" height=\"" + num(ph) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  // x ticks at integers when the range is small (tolerance levels), else 5 steps.
  double xstep = (xmax - xmin) <= 20 ? 1 : (xmax - xmin) / 5;
  for (double x = xmin; x <= xmax + 1e-9; x += xstep) {
    svg += "<line x1=\"" + num(px(x)) + "\" y1=\"" + num(top + ph) + "\" x2=\"" + num(px(x)) +
           "\" y2=\"" + num(top + ph + 5) + "\" stroke=\"#333\"/>\n";
    svg += "<text x=\"" + num(px(x)) + "\" y=\"" + num(top + ph + 18) +
           "\" text-anchor=\"middle\">" + tick_label(x) + "</text>\n";
  }
  double ystep = o.log_y ? 1 : (ymax - ymin) / 5;
  for (double v = ymin; v <= ymax + 1e-9; v += ystep) {
    double label = o.log_y ? std::pow(10.0, v) : v;
    svg += "<line x1=\"" + num(left) + "\" y1=\"" + num(py(v)) + "\" x2=\"" + num(left + pw) +
           "\" y2=\"" + num(py(v)) + "\" stroke=\"#ddd\"/>\n";
    svg += "<text x=\"" + num(left - 6) + "\" y=\"" + num(py(v) + 4) +
           "\" text-anchor=\"end\">" + tick_label(label) + "</text>\n";
  }
  svg += "<text x=\"" + num(left + pw / 2) + "\" y=\"" + num(o.height - 12.0) +
         "\" text-anchor=\"middle\">" + xml_escape(o.x_label) + "</text>\n";
  svg += "<text transform=\"translate(16," + num(top + ph / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + xml_escape(o.y_label) +
         (o.log_y ? " (log scale)" : "") + "</text>\n";
  for (size_t i = 0; i < series.size(); ++i) {
    const char* color = kColors[i % (sizeof kColors / sizeof *kColors)];
    std::string pts;
    for (auto [x, y] : series[i].points) {
      if (o.log_y && !(y > 0)) continue;
      pts += (pts.empty() ? "" : " ") + num(px(x)) + "," + num(py(ty(y)));
    }
    svg += "<polyline fill=\"none\" stroke=\"" + std::string(color) +
           "\" stroke-width=\"2\" points=\"" + pts + "\"/>\n";
    double ly = top + 14 + 18.0 * static_cast<double>(i);
    svg += "<line x1=\"" + num(left + pw + 12) + "\" y1=\"" + num(ly - 4) + "\" x2=\"" +
           num(left + pw + 32) + "\" y2=\"" + num(ly - 4) + "\" stroke=\"" + color +
           "\" stroke-width=\"2\"/>\n";
    svg += "<text x=\"" + num(left + pw + 36) + "\" y=\"" + num(ly) + "\">" +
           xml_escape(series[i].name) + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace pf::traj
