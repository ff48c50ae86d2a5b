// Applying passes to a variant's graph: each pass, in order, replaces every
// match with one replacement-call node (op "pass.<Name>", kCallOpPrefix)
// whose arguments are the match's bindings in parameter order: tensor values
// as operands, literals as literal Args. A pattern with several outputs gives
// a call producing a tensor list plus one tuple_get per output, so the
// original output values (names, types) stay and their users are untouched.
//
// The result is typed (every value keeps its inferred type; calls produce the
// types of the values they replace), in a valid program order (each call sits
// where its match's last node was; nodes that depend on its outputs but came
// earlier move after it) and prints with print_graph for feedback.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "evaluator/core/ir.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/loaded_pass.h"
#include "evaluator/passes/matcher.h"

namespace pf::passes {

struct PassOutcome {
  std::string pass;
  int matches = 0;
  bool budget_exhausted = false;
  //! When nothing matched: why (match_diagnostics.h), against the graph as
  //! this pass saw it (after the earlier passes).
  std::string diagnostics;
};

struct RewriteResult {
  Graph graph;
  std::vector<PassOutcome> passes;  // in application order
  int total_matches() const;
};

//! Replaces `matches` (non-overlapping, from find_matches on `graph`).
Graph rewrite_matches(const Graph& graph, const LoadedPass& pass,
                      const std::vector<Match>& matches);

//! Applies every pass in order. `graph` should be typed (infer_types).
RewriteResult apply_passes(const Graph& graph, const std::vector<LoadedPass>& passes,
                           const OpRegistry& registry, const MatchOptions& options = {});

//! Indices of the replacement-call nodes of a rewritten graph.
std::vector<int> call_nodes(const Graph& graph);

}  // namespace pf::passes
