#include "evaluator/gpu/graph_plan.h"

#include <algorithm>
#include <memory>

#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/type_inference.h"

namespace pf::gpu {
namespace {

bool args_on_host(const Arg& arg, const std::vector<bool>& on_host) {
  if (arg.is_value()) return on_host[arg.value];
  return std::all_of(arg.items.begin(), arg.items.end(),
                     [&](const Arg& item) { return args_on_host(item, on_host); });
}

Result<std::vector<DeviceTensor>> run_on_host(const Graph& graph, const Node& node,
                                              const OpInfo& op,
                                              std::vector<std::vector<Tensor>>& host,
                                              PlanBuilder& plan) {
  const auto& types = graph.values[node.output].types;
  BoundArgs<Tensor> args(node, OpRegistry::builtin().param_names(node.op), host);
  PF_ASSIGN(std::vector<Tensor> values, op.cpu(args, types));
  if (values.size() != types.size()) {
    return make_error(ErrorCode::internal, "the CPU op returned " + std::to_string(values.size()) +
                                               " values for " + std::to_string(types.size()) +
                                               " outputs");
  }
  std::vector<DeviceTensor> out;
  for (size_t i = 0; i < values.size(); ++i) {
    PF_ASSIGN(DeviceTensor d, plan.allocate(types[i], "host value"));
    PF_TRY(plan.runtime().upload_into(values[i].contiguous_copy(), d));
    d.set_host_value(std::make_shared<const Tensor>(values[i]));
    out.push_back(std::move(d));
  }
  host[node.output] = std::move(values);
  return out;
}

}  // namespace

std::vector<bool> host_nodes(const Graph& graph) {
  std::vector<bool> on_host(graph.values.size(), false);
  std::vector<bool> nodes(graph.nodes.size(), false);
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const Node& node = graph.nodes[n];
    const OpInfo* op = OpRegistry::builtin().find(node.op);
    if (op == nullptr || !op->cpu || op->is_view || op->returns_list) continue;
    const auto& types = graph.values[node.output].types;
    const bool zero_dim =
        !types.empty() && std::all_of(types.begin(), types.end(),
                                      [](const TensorType& t) { return t.shape.empty(); });
    const bool returned =
        std::find(graph.outputs.begin(), graph.outputs.end(), node.output) != graph.outputs.end();
    const bool inputs_on_host = std::all_of(node.args.begin(), node.args.end(),
                                            [&](const Arg& a) { return args_on_host(a, on_host); });
    nodes[n] = zero_dim && !returned && inputs_on_host;
    on_host[node.output] = nodes[n];
  }
  return nodes;
}

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
  std::vector<std::vector<Tensor>> host(graph.values.size());
  const std::vector<bool> on_host = host_nodes(graph);
  std::vector<bool> host_computed(graph.values.size(), false);
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
    // A hook may have taken a node host_nodes counted on: its users then run on the GPU.
    const bool host_ready = std::all_of(node.args.begin(), node.args.end(), [&](const Arg& a) {
      return args_on_host(a, host_computed);
    });
    if (!out && on_host[n] && host_ready) {
      auto ran = run_on_host(graph, node, *OpRegistry::builtin().find(node.op), host, plan);
      if (!ran.ok()) return ran.error().with_context(describe_node(graph, index));
      out = std::move(*ran);
      host_computed[node.output] = true;
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
