#include "evaluator/ops/type_inference.h"

#include "evaluator/ops/op_registry.h"

namespace pf {

std::string describe_node(const Graph& graph, int node_index) {
  const Node& n = graph.nodes[node_index];
  std::string out;
  if (n.loc.line > 0) out += "line " + std::to_string(n.loc.line) + ", ";
  out += graph.values[n.output].name + " = " + n.op + "(...)";
  return out;
}

Status infer_types(Graph& graph, const std::vector<TensorType>& input_types,
                   const OpRegistry& registry) {
  if (input_types.size() != graph.inputs.size()) {
    return make_error(ErrorCode::invalid_argument,
                      "graph '" + graph.name + "' takes " + std::to_string(graph.inputs.size()) +
                          " inputs, metadata describes " + std::to_string(input_types.size()));
  }
  std::vector<std::vector<TensorType>> env(graph.values.size());
  for (size_t k = 0; k < graph.inputs.size(); ++k) {
    env[graph.inputs[k]] = {input_types[k]};
    graph.values[graph.inputs[k]].types = {input_types[k]};
  }
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    Node& node = graph.nodes[n];
    const OpInfo* op = registry.find(node.op);
    if (!op) {
      return make_error(ErrorCode::unsupported,
                        describe_node(graph, static_cast<int>(n)) + ": unknown op '" + node.op + "'");
    }
    BoundArgs<TensorType> args(node, registry.param_names(node.op), env);
    auto types = op->infer(args);
    if (!types.ok()) return types.error().with_context(describe_node(graph, static_cast<int>(n)));
    env[node.output] = *types;
    graph.values[node.output].types = std::move(*types);
  }
  return ok_status();
}

}  // namespace pf
