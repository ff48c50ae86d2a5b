// Runs a typed graph on the CPU reference ops (float64 math, rounded to each
// op's output dtype). This is the ground truth the GPU baseline is tested against.
#pragma once

#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/core/tensor.h"

namespace pf {

class OpRegistry;

//! `graph` must have been through infer_types. Returns the graph outputs.
Result<std::vector<Tensor>> run_graph_cpu(const Graph& graph, const std::vector<Tensor>& inputs,
                                          const OpRegistry& registry);

}  // namespace pf
