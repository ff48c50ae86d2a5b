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

namespace {

bool is_tensor_value(const Graph& graph, const Arg& a) {
  return a.is_value() && a.value >= 0 && static_cast<size_t>(a.value) < graph.values.size() &&
         !graph.values[a.value].is_list;
}

const char* expected_kind(ParamKind kind) {
  switch (kind) {
    case ParamKind::tensor:
      return "a tensor";
    case ParamKind::optional_tensor:
      return "a tensor or None";
    case ParamKind::tensor_list:
      return "a list of tensors";
    case ParamKind::tensor_or_scalar:
      return "a tensor or a number";
    default:
      return "a literal";
  }
}

// The op's infer/cpu functions read tensors through BoundArgs without
// re-checking, so every argument's kind is checked against its parameter
// here, once, before any op code runs (an LLM-written graph may put a
// literal where a tensor belongs, or a value where a literal belongs).
Status check_arg_kinds(const Graph& graph, const Node& node, const OpInfo& op) {
  if (node.args.size() != op.params.size()) {
    return make_error(ErrorCode::invalid_argument,
                      op.name + ": expected " + std::to_string(op.params.size()) +
                          " normalised arguments, got " + std::to_string(node.args.size()));
  }
  for (size_t i = 0; i < op.params.size(); ++i) {
    const ParamDef& p = op.params[i];
    const Arg& a = node.args[i];
    bool ok = true;
    switch (p.kind) {
      case ParamKind::tensor:
        ok = is_tensor_value(graph, a);
        break;
      case ParamKind::optional_tensor:
        ok = a.is_none() || is_tensor_value(graph, a);
        break;
      case ParamKind::tensor_list:
        if (a.is_value()) {
          ok = a.value >= 0 && static_cast<size_t>(a.value) < graph.values.size();
        } else {
          ok = a.is_sequence();
          for (const auto& item : a.items) ok = ok && is_tensor_value(graph, item);
        }
        break;
      case ParamKind::tensor_or_scalar:
        // None only where None is the default (clamp's min/max).
        ok = is_tensor_value(graph, a) || a.is_number() || a.kind == Arg::Kind::boolean ||
             (a.is_none() && p.default_value && p.default_value->is_none());
        break;
      case ParamKind::indices:
        break;
      default:
        ok = !a.references_values();
        break;
    }
    if (!ok) {
      std::string got =
          a.references_values()
              ? (a.is_value() && graph.values[a.value].is_list ? "a tensor list" : "a tensor value")
              : "'" + arg_to_string(a, graph.value_names()) + "'";
      return make_error(ErrorCode::invalid_argument, op.name + ": parameter '" + p.name +
                                                         "' expects " + expected_kind(p.kind) +
                                                         ", got " + got);
    }
  }
  return ok_status();
}

// Type inference is where a graph's sizes are first known. A size no
// evaluation could hold (a literal like torch.zeros(10**12) from a model or a
// task file) is refused here with the node's name, before the CPU reference
// or the GPU tries the allocation and the process dies of std::bad_alloc.
constexpr int64_t kMaxTensorBytes = int64_t{1} << 34;  // 16 GiB

Status check_size(const TensorType& t) {
  int64_t bytes = static_cast<int64_t>(dtype_size(t.dtype));
  for (int64_t d : t.shape) {
    if (d < 0)
      return make_error(ErrorCode::invalid_argument, "negative size in " + shape_str(t.shape));
    if (d != 0 && bytes > kMaxTensorBytes / d) {
      return make_error(ErrorCode::invalid_argument,
                        "an output of shape " + shape_str(t.shape) + " (" + dtype_name(t.dtype) +
                            ") exceeds the 16 GiB limit on one tensor");
    }
    bytes *= d;
  }
  return ok_status();
}

}  // namespace

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
      return make_error(ErrorCode::unsupported, describe_node(graph, static_cast<int>(n)) +
                                                    ": unknown op '" + node.op + "'");
    }
    Status kinds = check_arg_kinds(graph, node, *op);
    if (!kinds.ok()) return kinds.error().with_context(describe_node(graph, static_cast<int>(n)));
    BoundArgs<TensorType> args(node, registry.param_names(node.op), env);
    auto types = op->infer(args);
    if (!types.ok()) return types.error().with_context(describe_node(graph, static_cast<int>(n)));
    for (const TensorType& t : *types) {
      Status size = check_size(t);
      if (!size.ok()) return size.error().with_context(describe_node(graph, static_cast<int>(n)));
    }
    env[node.output] = *types;
    graph.values[node.output].types = std::move(*types);
  }
  return ok_status();
}

}  // namespace pf
