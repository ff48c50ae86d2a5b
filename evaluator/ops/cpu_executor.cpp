#include "evaluator/ops/cpu_executor.h"

#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"

namespace pf {

Result<std::vector<Tensor>> run_graph_cpu(const Graph& graph, const std::vector<Tensor>& inputs,
                                          const OpRegistry& registry) {
  if (inputs.size() != graph.inputs.size()) {
    return make_error(ErrorCode::invalid_argument, "graph '" + graph.name + "' takes " +
                                                       std::to_string(graph.inputs.size()) +
                                                       " inputs, got " +
                                                       std::to_string(inputs.size()));
  }
  std::vector<std::vector<Tensor>> env(graph.values.size());
  for (size_t k = 0; k < inputs.size(); ++k) {
    // Ops trust the inferred types (shapes drive every loop), so inputs
    // that disagree with them (a user's .npy file) are refused here.
    const Value& value = graph.values[graph.inputs[k]];
    TensorType given{inputs[k].dtype(), inputs[k].shape()};
    if (value.types.size() != 1 || !(value.types[0] == given) || !inputs[k].defined()) {
      return make_error(ErrorCode::invalid_argument,
                        "input '" + value.name + "': expected " +
                            (value.types.size() == 1 ? tensor_type_str(value.types[0])
                                                     : std::string("a typed input")) +
                            ", got " + tensor_type_str(given));
    }
    env[graph.inputs[k]] = {inputs[k]};
  }
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const Node& node = graph.nodes[n];
    const OpInfo* op = registry.find(node.op);
    if (!op || !op->cpu) {
      return make_error(ErrorCode::unsupported, describe_node(graph, static_cast<int>(n)) +
                                                    ": no CPU reference for '" + node.op + "'");
    }
    BoundArgs<Tensor> args(node, registry.param_names(node.op), env);
    auto out = op->cpu(args, graph.values[node.output].types);
    if (!out.ok()) return out.error().with_context(describe_node(graph, static_cast<int>(n)));
    env[node.output] = std::move(*out);
  }
  std::vector<Tensor> outputs;
  for (ValueId v : graph.outputs) {
    if (env[v].size() != 1) {
      return make_error(ErrorCode::unsupported,
                        "graph output '" + graph.values[v].name + "' is not a single tensor");
    }
    outputs.push_back(env[v][0]);
  }
  return outputs;
}

}  // namespace pf
