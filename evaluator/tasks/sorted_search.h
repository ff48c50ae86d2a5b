// torch.bucketize / torch.searchsorted search boundaries PyTorch assumes are
// sorted along their last dim (it does not check). Synthesised inputs are
// random, so a graph whose boundaries are a synthesised input would compare
// two answers to an undefined question: such a variant is refused at import.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/tasks/task.h"

namespace pf {

//! ok when every bucketize / searchsorted node's boundaries are known sorted:
//! an input with literal `data` sorted along its last dim, the values of an
//! ascending sort along the last dim, an arange with a positive step or a
//! linspace from start to end >= start. Else an invalid_argument error naming
//! the call and the reason. `inputs` are the graph inputs' metadata in order.
Status check_sorted_search_boundaries(const Graph& graph, const std::vector<InputMeta>& inputs,
                                      const std::string& file);

}  // namespace pf
