#include "evaluator/passes/match_diagnostics.h"

#include <algorithm>

#include "evaluator/dialect/printer.h"

namespace pf::passes {

std::string node_statement(const Graph& graph, int node, const OpRegistry& registry) {
  // A one-statement graph over the same values: the printer's rendering of
  // this node, with the operands as parameters so every name is defined.
  Graph one;
  one.values = graph.values;
  for (auto& v : one.values) v.types.clear();
  const Node& n = graph.nodes[node];
  for (ValueId v : Graph::node_operands(n)) {
    if (std::find(one.inputs.begin(), one.inputs.end(), v) == one.inputs.end()) {
      one.inputs.push_back(v);
    }
  }
  one.nodes.push_back(n);
  one.outputs.push_back(n.output);
  std::string text = dialect::print_graph(one, registry, dialect::PrintOptions{});
  size_t start = text.find('\n');
  if (start == std::string::npos) return text;
  start = text.find_first_not_of(' ', start + 1);
  size_t end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string node_with_line(const Graph& graph, int node, const OpRegistry& registry) {
  int line = graph.nodes[node].loc.line;
  std::string stmt = node_statement(graph, node, registry);
  return line > 0 ? "line " + std::to_string(line) + ": " + stmt : stmt;
}

std::string render_miss(const LoadedPass& pass, const Graph& graph, const PartialMatch& closest,
                        const OpRegistry& registry) {
  const Graph& p = pass.pattern;
  std::string out = pass.name + " (" + pass.file + ") does not match";
  size_t total = p.nodes.size();
  if (closest.pairs.empty()) {
    out += ": " + closest.reason;
    if (closest.pattern_node >= 0) {
      out += "\n  pattern " + node_with_line(p, closest.pattern_node, registry);
    }
    return out;
  }
  out += ": closest attempt matched " + std::to_string(closest.matched) + " of " +
         std::to_string(total) + " pattern nodes";
  for (const auto& [pn, gn] : closest.pairs) {
    if (pn == closest.pattern_node) continue;
    out += "\n  pattern " + node_with_line(p, pn, registry) + "   ~ " +
           node_with_line(graph, gn, registry);
  }
  if (closest.pattern_node < 0) {
    out += "\n  every pattern node matched, but " + closest.reason;
    return out;
  }
  out += "\n  failed at pattern " + node_with_line(p, closest.pattern_node, registry);
  if (closest.graph_node >= 0)
    out += "\n    vs " + node_with_line(graph, closest.graph_node, registry);
  out += "\n    " + closest.reason;
  return out;
}

}  // namespace pf::passes
