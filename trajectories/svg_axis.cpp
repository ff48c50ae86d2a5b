#include "trajectories/svg_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pf::traj {

AxisTicks nice_ticks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (lo > hi) std::swap(lo, hi);
  if (hi - lo < 1e-12) {
    double pad = std::max(std::abs(lo) * 0.1, 0.5);
    lo -= pad;
    hi += pad;
  }
  double raw = (hi - lo) / std::max(target, 1);
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double frac = raw / mag;
  // Rounded to the nearest of 1, 2, 5, 10 on a log scale (the thresholds are
  // their geometric means), so the tick count stays near the target.
  double nice = frac >= std::sqrt(50.0)   ? 10
                : frac >= std::sqrt(10.0) ? 5
                : frac >= std::sqrt(2.0)  ? 2
                                          : 1;
  AxisTicks t;
  t.step = nice * mag;
  // The small slack keeps a bound that is already a whole step (0.6 / 0.2 =
  // 2.9999999) from growing the axis by one more step.
  t.lo = std::floor(lo / t.step + 1e-9) * t.step;
  t.hi = std::ceil(hi / t.step - 1e-9) * t.step;
  t.decimals = std::max(0, -static_cast<int>(std::floor(std::log10(t.step) + 1e-9)));
  int n = static_cast<int>(std::lround((t.hi - t.lo) / t.step));
  for (int i = 0; i <= n; ++i) t.values.push_back(t.lo + t.step * i);
  return t;
}

std::string tick_text(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);
  return s;
}

std::string svg_num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string svg_open(int width, int height) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
         "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) +
         " " + std::to_string(height) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n"
         "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}

}  // namespace pf::traj
