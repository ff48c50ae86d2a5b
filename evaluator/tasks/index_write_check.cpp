#include "evaluator/tasks/index_write_check.h"

#include <algorithm>
#include <cstdint>
#include <set>

namespace pf {

namespace {

// Ops that pass their first operand's values through unchanged in number and
// order (shape or dtype aside): indices read through them are still the input's.
bool passes_values_through(const std::string& op) {
  static const std::set<std::string> ops = {
      "view", "reshape", "flatten", "squeeze", "unsqueeze", "contiguous", "clone", "to", "type_as"};
  return ops.count(op) > 0;
}

// The graph input whose values `v` carries, or -1 when computed.
int source_input(const Graph& graph, ValueId v) {
  for (;;) {
    const Value& value = graph.values[static_cast<size_t>(v)];
    if (value.producer < 0) {
      const auto it = std::find(graph.inputs.begin(), graph.inputs.end(), v);
      return it == graph.inputs.end() ? -1 : static_cast<int>(it - graph.inputs.begin());
    }
    const Node& n = graph.nodes[static_cast<size_t>(value.producer)];
    if (!passes_values_through(n.op) || n.args.empty() || !n.args[0].is_value()) return -1;
    v = n.args[0].value;
  }
}

bool integer_tensor(const Graph& graph, ValueId v) {
  const auto& types = graph.values[static_cast<size_t>(v)].types;
  return !types.empty() && !is_floating(types[0].dtype) && types[0].dtype != DType::boolean;
}

// The integer index tensors of a write's index argument (a tensor or a tuple
// holding some).
std::vector<ValueId> index_tensors(const Graph& graph, const Arg& index) {
  std::vector<ValueId> out;
  if (index.is_value()) {
    if (integer_tensor(graph, index.value)) out.push_back(index.value);
    return out;
  }
  if (!index.is_sequence()) return out;
  for (const Arg& item : index.items) {
    if (item.is_value() && integer_tensor(graph, item.value)) out.push_back(item.value);
  }
  return out;
}

// A value that is a number or one element writes the same thing at every
// position: duplicates agree.
bool one_value(const Graph& graph, const Arg& value) {
  if (!value.is_value()) return true;
  const auto& types = graph.values[static_cast<size_t>(value.value)].types;
  return !types.empty() && shape_numel(types[0].shape) <= 1;
}

// Why the input's values may name one position twice ("" when they cannot).
std::string collision_reason(const InputMeta& m) {
  if (shape_numel(m.shape) <= 1) return "";
  if (m.data) {
    std::set<double> seen;
    for (double d : *m.data) {
      if (!seen.insert(d).second)
        return "its literal data holds " + std::to_string(static_cast<int64_t>(d)) + " twice";
    }
    return "";
  }
  return "it is synthesised at random, where positions repeat";
}

}  // namespace

Status check_index_writes_distinct(const Graph& graph, const std::vector<InputMeta>& inputs,
                                   const std::string& file) {
  for (const Node& node : graph.nodes) {
    const bool put = node.op == "index_put";
    if (!put && node.op != "setitem") continue;
    if (node.args.size() < 3 || one_value(graph, node.args[2])) continue;
    if (put && node.args.size() > 3 && node.args[3].kind == Arg::Kind::boolean && node.args[3].b)
      continue;  // accumulate: duplicates add up, in any order
    const std::vector<ValueId> indices = index_tensors(graph, node.args[1]);
    // Several index tensors name a position together: it repeats only when
    // every one of them may repeat, so they must all be random inputs.
    std::string why;
    const InputMeta* named = nullptr;
    for (ValueId v : indices) {
      const int i = source_input(graph, v);
      const InputMeta* m = i >= 0 && static_cast<size_t>(i) < inputs.size()
                               ? &inputs[static_cast<size_t>(i)]
                               : nullptr;
      const std::string reason = m == nullptr                    ? std::string()
                                 : indices.size() > 1 && m->data ? std::string()
                                                                 : collision_reason(*m);
      if (reason.empty()) {
        why.clear();
        break;
      }
      if (named == nullptr) {
        named = m;
        why = reason;
      }
    }
    if (why.empty()) continue;
    std::string message = file + ":" + std::to_string(node.loc.line) + ":" +
                          std::to_string(node.loc.column) + ": " + node.op;
    message += " writes a tensor of values at the positions input '" + named->name + "' names";
    if (indices.size() > 1) message += " (with the other index inputs, all synthesised at random)";
    message += ", but " + why + "; two positions naming one element with different values leave ";
    message += "the result to whichever write wins (unspecified in PyTorch, a race on the GPU), ";
    message += "so there is no reference to compare against";
    return make_error(ErrorCode::invalid_argument, message);
  }
  return ok_status();
}

}  // namespace pf
