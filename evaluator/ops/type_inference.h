// Fills Value::types for every value of a graph from its input types, node by
// node, through each op's shape/dtype rule.
#pragma once

#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"

namespace pf {

class OpRegistry;

//! Sets the graph inputs' types and infers the rest. Errors name the node's
//! source line and output ("line 7 (tmp_3 = layer_norm ...): ...").
Status infer_types(Graph& graph, const std::vector<TensorType>& input_types,
                   const OpRegistry& registry);

//! "line 7, tmp_3 = torch.cat(...)" for error messages about one node.
std::string describe_node(const Graph& graph, int node_index);

}  // namespace pf
