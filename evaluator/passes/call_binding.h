// From a replacement-call node of a rewritten graph to the interpreter's
// inputs: one value per pattern parameter, and the tensor table (handle ->
// geometry) its tensors refer to. Shared by the dry run and the GPU hook.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "evaluator/core/ir.h"
#include "evaluator/passes/interp_value.h"

namespace pf::passes {

struct CallArgs {
  std::vector<TensorMeta> tensors;               // handle -> geometry
  std::vector<std::pair<ValueId, int>> sources;  // handle -> (graph value, item in a tensor list)
  std::vector<RValue> args;                      // one per pattern parameter
};

//! `geometry(v)` gives the geometry of value v: one entry for a tensor, n for
//! a tensor list. A value used twice gets one handle.
CallArgs bind_call(const Graph& graph, const Node& call,
                   const std::function<std::vector<TensorMeta>(ValueId)>& geometry);

}  // namespace pf::passes
