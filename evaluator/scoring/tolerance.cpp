#include "evaluator/scoring/tolerance.h"

#include <cmath>

namespace pf {

double round_significant(double v, int digits) {
  if (v == 0 || !std::isfinite(v)) return v;
  double magnitude = std::floor(std::log10(std::fabs(v)));
  double scale = std::pow(10.0, digits - 1 - magnitude);
  return std::round(v * scale) / scale;
}

Tolerance tolerance_for(DType dtype, int t) {
  auto p10 = [](double e) { return round_significant(std::pow(10.0, e), 3); };
  switch (dtype) {
    case DType::float16: return {p10(0.6 * t), p10(t), false};
    case DType::bfloat16: return {p10(0.3592 * t), p10(t), false};
    case DType::float32: return {p10(1.1772 * t), p10(t), false};
    case DType::float64: return {p10(1.4 * t), p10(1.4 * t), false};
    default: return {0, 0, true};
  }
}

}  // namespace pf
