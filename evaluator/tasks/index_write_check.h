// x[idx] = v and index_put(x, (i, j), v) write v's elements at the positions
// the index tensors name. When two positions name the same element with
// different values, which write wins is unspecified in PyTorch (a race on the
// GPU): the baseline, the reference and the candidate may each keep another.
// An index tensor that is a graph input without literal data is synthesised
// at random, where such collisions are the rule, so a variant writing a
// varying value through one is refused at import with the reason: its
// comparison would reward or punish the race, not the pass.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/tasks/task.h"

namespace pf {

//! ok unless a setitem / index_put (without accumulate) node writes a value of
//! more than one element at integer indices that come from a graph input
//! synthesised at random, or from literal data naming one position twice
//! (through views, reshapes and casts). `graph` is typed; `inputs` are the
//! graph inputs' metadata in order.
Status check_index_writes_distinct(const Graph& graph, const std::vector<InputMeta>& inputs,
                                   const std::string& file);

}  // namespace pf
