// F.nll_loss / F.cross_entropy read their int64 target as class indices.
// When the target is a graph input, synthesis draws it uniformly in
// [min_val, max_val] (GraphNet's record of the real labels; [0, 2] without
// bounds) or takes its literal data: a variant whose targets may fall
// outside [0, C) (other than ignore_index) would fail on the CPU reference
// at every evaluation ("Target 5 is out of bounds."), so it is refused at
// import with the reason instead.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/tasks/task.h"

namespace pf {

//! ok when every nll_loss / cross_entropy node whose integer target is a graph
//! input draws only valid class indices. `graph` is typed; `inputs` are the
//! graph inputs' metadata in order.
Status check_class_targets(const Graph& graph, const std::vector<InputMeta>& inputs,
                           const std::string& file);

}  // namespace pf
