#include "trajectories/svg_rows.h"

#include <algorithm>

#include "trajectories/svg_axis.h"

namespace pf::traj {
namespace {

constexpr double kTop = 44, kRow = 22, kBottom = 50, kLabelWidth = 250, kRight = 70;
constexpr size_t kMaxLabel = 38;

std::string short_label(const std::string& s) {
  return s.size() <= kMaxLabel ? s : s.substr(0, kMaxLabel - 1) + "\u2026";
}

}  // namespace

int row_chart_height(size_t rows) {
  return static_cast<int>(kTop + kRow * static_cast<double>(std::max<size_t>(rows, 1)) + kBottom);
}

std::string row_chart_svg(const std::vector<RowDatum>& rows, const RowChartOptions& o) {
  const int height = row_chart_height(rows.size());
  const double left = kLabelWidth, pw = o.width - kLabelWidth - kRight;
  const double ph = kRow * static_cast<double>(std::max<size_t>(rows.size(), 1));
  double lo = 0, hi = 0;
  for (const auto& r : rows) {
    lo = std::min({lo, r.value, r.lo.value_or(r.value)});
    hi = std::max({hi, r.value, r.hi.value_or(r.value)});
  }
  // Counts keep whole-number ticks: at least 5 wide, the step is >= 1.
  bool counts = o.style == RowChartOptions::Style::bars &&
                std::all_of(rows.begin(), rows.end(), [](const RowDatum& r) {
                  return r.value == static_cast<double>(static_cast<long long>(r.value));
                });
  if (counts) hi = std::max(hi, 5.0);
  AxisTicks xt = nice_ticks(lo, hi);
  int value_decimals = counts ? 0 : std::max(xt.decimals, 2);
  auto px = [&](double x) { return left + (x - xt.lo) / (xt.hi - xt.lo) * pw; };

  std::string svg = svg_open(o.width, height);
  svg += "<text x=\"" + svg_num(o.width / 2.0) +
         "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" + xml_escape(o.title) + "</text>\n";
  for (double x : xt.values) {
    svg += "<line x1=\"" + svg_num(px(x)) + "\" y1=\"" + svg_num(kTop) + "\" x2=\"" +
           svg_num(px(x)) + "\" y2=\"" + svg_num(kTop + ph) + "\" stroke=\"#e4e4e4\"/>\n";
    svg += "<text class=\"x-tick\" x=\"" + svg_num(px(x)) + "\" y=\"" + svg_num(kTop + ph + 16) +
           "\" text-anchor=\"middle\">" + tick_text(x, xt.decimals) + "</text>\n";
  }
  svg += "<line x1=\"" + svg_num(px(0)) + "\" y1=\"" + svg_num(kTop) + "\" x2=\"" + svg_num(px(0)) +
         "\" y2=\"" + svg_num(kTop + ph) + "\" stroke=\"#333\"/>\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    double cy = kTop + kRow * (static_cast<double>(i) + 0.5);
    if (r.summary && i > 0) {
      svg += "<line x1=\"8\" y1=\"" + svg_num(cy - kRow / 2) + "\" x2=\"" + svg_num(o.width - 8.0) +
             "\" y2=\"" + svg_num(cy - kRow / 2) + "\" stroke=\"#999\"/>\n";
    }
    svg += "<text class=\"row-label\" x=\"" + svg_num(left - 8) + "\" y=\"" + svg_num(cy + 4) +
           "\" text-anchor=\"end\"" + (r.summary ? " font-weight=\"bold\"" : "") + ">" +
           xml_escape(short_label(r.label)) + "<title>" + xml_escape(r.label) + "</title></text>\n";
    const char* color = r.summary ? "#d62728" : "#1f77b4";
    if (r.lo && r.hi) {
      svg += "<line x1=\"" + svg_num(px(*r.lo)) + "\" y1=\"" + svg_num(cy) + "\" x2=\"" +
             svg_num(px(*r.hi)) + "\" y2=\"" + svg_num(cy) + "\" stroke=\"" + color +
             "\" stroke-width=\"2\"/>\n";
    }
    if (o.style == RowChartOptions::Style::bars) {
      double x0 = px(std::min(0.0, r.value)), x1 = px(std::max(0.0, r.value));
      svg += "<rect x=\"" + svg_num(x0) + "\" y=\"" + svg_num(cy - kRow * 0.35) + "\" width=\"" +
             svg_num(std::max(x1 - x0, 1.0)) + "\" height=\"" + svg_num(kRow * 0.7) + "\" fill=\"" +
             color + "\"/>\n";
    } else if (r.summary) {
      double x = px(r.value);
      svg += "<path d=\"M" + svg_num(x - 6) + "," + svg_num(cy) + " L" + svg_num(x) + "," +
             svg_num(cy - 6) + " L" + svg_num(x + 6) + "," + svg_num(cy) + " L" + svg_num(x) + "," +
             svg_num(cy + 6) + " Z\" fill=\"" + color + "\"/>\n";
    } else {
      svg += "<circle cx=\"" + svg_num(px(r.value)) + "\" cy=\"" + svg_num(cy) +
             "\" r=\"4\" fill=\"" + color + "\"/>\n";
    }
    double tx = px(std::max(r.value, r.hi.value_or(r.value))) + 8;
    std::string text = tick_text(r.value, value_decimals);
    if (r.lo && r.hi) {
      text +=
          " [" + tick_text(*r.lo, value_decimals) + ", " + tick_text(*r.hi, value_decimals) + "]";
    }
    svg += "<text class=\"row-value\" x=\"" + svg_num(std::min(tx, o.width - kRight + 60.0)) +
           "\" y=\"" + svg_num(cy + 4) + "\" fill=\"#444\">" + text + "</text>\n";
  }
  svg += "<text x=\"" + svg_num(left + pw / 2) + "\" y=\"" + svg_num(height - 12.0) +
         "\" text-anchor=\"middle\">" + xml_escape(o.x_label) + "</text>\n";
  svg += "</svg>\n";
  return svg;
}

}  // namespace pf::traj
