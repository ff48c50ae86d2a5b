// What a model reads when its pattern does not match a variant: the closest
// attempt (which pattern statements matched which variant statements) and,
// for the first failing statement, the expected vs found op, argument or
// literal, or the outside user that blocks the match. Statements are printed
// in dialect syntax with their source lines, e.g.
//
//   FuseRope (passes/FuseRope.py) does not match: closest attempt matched 3 of 4 pattern nodes
//     pattern line 6: out = c + t2   ~ line 7: tmp_3 = in_3 + tmp_2
//     ...
//     failed at pattern line 3: t0 = -a
//       vs line 4: tmp_0 = in_0 - in_1
//       expected op 'neg', found 'sub'
#pragma once

#include <string>

#include "evaluator/core/ir.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/loaded_pass.h"
#include "evaluator/passes/matcher.h"

namespace pf::passes {

//! One node as a dialect statement: "tmp_1 = torch.cat((tmp_0, in_1), dim=-1)".
std::string node_statement(const Graph& graph, int node, const OpRegistry& registry);

//! "line 7: tmp_3 = in_3 + tmp_2" (without "line N: " when the line is unknown).
std::string node_with_line(const Graph& graph, int node, const OpRegistry& registry);

//! The diagnostic for a pass that matched nothing in `graph`.
std::string render_miss(const LoadedPass& pass, const Graph& graph, const PartialMatch& closest,
                        const OpRegistry& registry);

}  // namespace pf::passes
