#include "evaluator/gpu/graph_plan.h"

#include <algorithm>

#include "evaluator/ops/type_inference.h"

namespace pf::gpu {

Result<std::vector<DeviceTensor>> build_graph_plan(const Graph& graph,
                                                   const std::vector<DeviceTensor>& inputs,
                                                   PlanBuilder& plan, const NodeHook& hook,
                                                   const GpuOpRegistry& registry) {
  if (inputs.size() != graph.inputs.size()) {
    return make_error(ErrorCode::invalid_argument,
                      "graph '" + graph.name + "' takes " + std::to_string(graph.inputs.size()) +
                          " inputs, got " + std::to_string(inputs.size()));
  }
  std::vector<std::vector<DeviceTensor>> env(graph.values.size());
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Value& v = graph.values[graph.inputs[k]];
    if (v.types.size() != 1 || v.types[0] != inputs[k].type()) {
      return make_error(
          ErrorCode::invalid_argument,
          "input '" + v.name + "' is " + tensor_type_str(inputs[k].type()) +
              ", the graph expects " +
              (v.types.empty() ? std::string("an untyped value") : tensor_type_str(v.types[0])));
    }
    plan.use(inputs[k]);
    env[graph.inputs[k]] = {inputs[k]};
  }
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const Node& node = graph.nodes[n];
    const int index = static_cast<int>(n);
    std::optional<std::vector<DeviceTensor>> out;
    if (hook) {
      auto handled = hook(graph, index, env, plan);
      if (!handled.ok()) return handled.error().with_context(describe_node(graph, index));
      out = std::move(*handled);
    }
    if (!out) {
      auto ran = registry.run(graph, node, env, plan);
      if (!ran.ok()) return ran.error().with_context(describe_node(graph, index));
      out = std::move(*ran);
    }
    const auto& types = graph.values[node.output].types;
    bool types_ok = out->size() == types.size();
    for (size_t i = 0; types_ok && i < types.size(); ++i) types_ok = (*out)[i].type() == types[i];
    if (!types_ok) {
      return make_error(
          ErrorCode::internal,
          describe_node(graph, index) + ": the GPU outputs do not match the inferred types");
    }
    env[node.output] = std::move(*out);
  }
  std::vector<DeviceTensor> outputs;
  for (ValueId v : graph.outputs) {
    if (env[v].size() != 1) {
      return make_error(ErrorCode::unsupported,
                        "graph output '" + graph.values[v].name + "' is not a single tensor");
    }
    outputs.push_back(env[v][0]);
  }
  return outputs;
}

std::vector<std::string> unsupported_ops(const Graph& graph, const GpuOpRegistry& registry) {
  std::vector<std::string> out;
  for (const Node& node : graph.nodes) {
    auto st = registry.supports_node(graph, node);
    if (!st.ok() && std::find(out.begin(), out.end(), st.error().message) == out.end()) {
      out.push_back(st.error().message);
    }
  }
  return out;
}

}  // namespace pf::gpu
