// The hidden-variant rule: which of a task's variants are evaluated but never
// shown to the model when a share of them is hidden. The importer applies it
// when it writes a task file (--hidden-share), a run when
// evaluator.hidden_variants = "share"; both must choose the same variants.
#pragma once

#include "evaluator/tasks/task.h"

namespace pf {

//! Clears every hidden flag, then hides floor(share * n) variants, the ones
//! with the smallest sha256("<task id>/<variant name>") (deterministic, and
//! independent of the variants' order), one always visible.
void hide_variant_share(Task& task, double share);

}  // namespace pf
