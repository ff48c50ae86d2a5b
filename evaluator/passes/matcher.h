// Finding a pattern in a variant's graph (docs/design.md "The pass").
//
// Semantics:
// - Ops are compared by canonical name and arguments after normalisation, so
//   `dim=-1` and a positional `-1` are the same argument.
// - A pattern parameter is a wildcard: it binds whatever the graph has in that
//   position: a tensor value (input or intermediate) or a literal (int, float,
//   tuple, string, ...), so one pattern covers shape literals that differ
//   between variants. A parameter used twice must bind equal things.
// - Literals written in the pattern must be equal (an int is not a float).
// - Values computed inside a match may be used outside it only if the pattern
//   returns them, and may not be graph outputs otherwise; a parameter may not
//   bind a value the match computes or one that depends on it (the match must
//   be replaceable by one call placed where its last node was).
// - Matches do not overlap; the search anchors on the pattern's output nodes
//   and walks operands backwards, trying anchors in program order and keeping
//   every match found (greedy, deterministic).
// When nothing matches, the closest attempt (most pattern nodes matched) and
// why it failed are kept for diagnostics (match_diagnostics.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "evaluator/core/ir.h"
#include "evaluator/ops/op_registry.h"

namespace pf::passes {

struct Match {
  std::vector<int> nodes;        // per pattern node: the graph node it matched
  std::vector<Arg> bindings;     // per pattern input: the graph value or literal it bound
  std::vector<ValueId> outputs;  // per pattern output: the graph value
  int last_node = -1;            // the latest matched graph node (where the call goes)
};

//! The closest unsuccessful attempt.
struct PartialMatch {
  int matched = 0;                         // pattern nodes mapped onto graph nodes of the same op
  std::vector<std::pair<int, int>> pairs;  // (pattern node, graph node), in matching order
  int pattern_node = -1;  // the node where it failed; -1 when the failure concerns the whole match
  int graph_node = -1;    // the graph node it was compared with (-1: none)
  std::string reason;     // what failed, in words with dialect names
};

struct MatchOptions {
  //! Bounds the search (node comparisons); beyond it the search stops with
  //! the matches found so far.
  size_t max_steps = 2'000'000;
};

struct MatchSearch {
  std::vector<Match> matches;
  std::optional<PartialMatch> closest;  // set when `matches` is empty
  bool budget_exhausted = false;
};

//! `pattern` is a pattern graph (loaded_pass.h); `graph` any graph (its
//! replacement-call nodes never match: their op names are reserved).
MatchSearch find_matches(const Graph& pattern, const Graph& graph, const OpRegistry& registry,
                         const MatchOptions& options = {});

}  // namespace pf::passes
