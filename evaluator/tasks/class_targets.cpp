#include "evaluator/tasks/class_targets.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "common/strings.h"

namespace pf {

namespace {

bool valid(double v, int64_t classes, int64_t ignore_index) {
  return (v >= 0 && v < static_cast<double>(classes)) || v == static_cast<double>(ignore_index);
}

// Why the input's values may not be class indices ("" when they are).
std::string invalid_reason(const InputMeta& m, int64_t classes, int64_t ignore_index) {
  if (m.data) {
    for (double v : *m.data) {
      if (!valid(v, classes, ignore_index)) return "its literal data holds " + format_double(v);
    }
    return "";
  }
  // Synthesis's rule (docs/tasks.md "Input synthesis"): [min_val, max_val],
  // [0, 2] without bounds, swapped when given the wrong way round.
  double lo = std::ceil(m.min_val.value_or(0)), hi = std::floor(m.max_val.value_or(2));
  if (lo > hi) std::swap(lo, hi);
  const double valid_lo = std::max(lo, 0.0);
  const double valid_hi = std::min(hi, static_cast<double>(classes - 1));
  double count = hi - lo + 1;
  if (valid_hi >= valid_lo) count -= valid_hi - valid_lo + 1;
  const auto ii = static_cast<double>(ignore_index);
  if (ii >= lo && ii <= hi && !(ii >= 0 && ii < static_cast<double>(classes))) count -= 1;
  if (count <= 0) return "";
  return "it is synthesised in [" + std::to_string(static_cast<int64_t>(lo)) + ", " +
         std::to_string(static_cast<int64_t>(hi)) + "]";
}

}  // namespace

Status check_class_targets(const Graph& graph, const std::vector<InputMeta>& inputs,
                           const std::string& file) {
  for (const Node& node : graph.nodes) {
    if (node.op != "nll_loss" && node.op != "cross_entropy") continue;
    if (node.args.size() < 5 || !node.args[0].is_value() || !node.args[1].is_value()) continue;
    const Value& target = graph.values[static_cast<size_t>(node.args[1].value)];
    const Value& input = graph.values[static_cast<size_t>(node.args[0].value)];
    if (target.producer >= 0 || target.types.empty() || input.types.empty()) continue;
    if (is_floating(target.types[0].dtype)) continue;  // probability targets
    const Shape& in = input.types[0].shape;
    if (in.empty() || node.args[4].kind != Arg::Kind::integer) continue;
    const int64_t classes = in.size() == 1 ? in[0] : in[1];
    const auto it = std::find(graph.inputs.begin(), graph.inputs.end(), node.args[1].value);
    const auto i = static_cast<size_t>(it - graph.inputs.begin());
    if (it == graph.inputs.end() || i >= inputs.size()) continue;
    const std::string why = invalid_reason(inputs[i], classes, node.args[4].i);
    if (why.empty()) continue;
    std::string message = file;
    message += ":" + std::to_string(node.loc.line) + ":" + std::to_string(node.loc.column) + ": ";
    message += node.op + " reads input '" + inputs[i].name + "' as class indices in [0, ";
    message += std::to_string(classes) + ") (or ignore_index " + std::to_string(node.args[4].i);
    message += "), but " + why + "; PyTorch and the reference refuse an index out of range";
    return make_error(ErrorCode::invalid_argument, message);
  }
  return ok_status();
}

}  // namespace pf
