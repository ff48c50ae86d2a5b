// Renders a graph as readable dialect source (shown to LLMs in prompts).
// Contract: build_graph(parse(print_graph(g))) == g for graphs built by
// build_graph (value names included), tested on the whole corpus.
#pragma once

#include <string>

#include "evaluator/core/ir.h"
#include "evaluator/ops/op_registry.h"

namespace pf::dialect {

struct PrintOptions {
  //! Appends "# float32[1, 6, 51, 51]" to statements whose value has a type.
  bool type_comments = false;
  //! Starts with one "# in_0: float32[...]" comment line per typed input.
  bool input_header = false;
  //! The def's name; empty means the graph's name (or "forward" if it has none).
  std::string function_name;
  std::string indent = "    ";
};

//! `def forward(in_0, in_1):`, one statement per node, `return (a, b)`.
//! Ops print with their first alias: operators infix/prefix or as subscripts,
//! `Tensor.*` as methods, others as dotted calls; required parameters
//! positionally, non-default optional ones as keywords, defaults omitted;
//! `tuple_get` as `t[0]`. Values keep their names unless a name would be
//! ambiguous or invalid in the printed code (then it gets a suffix).
std::string print_graph(const Graph& graph, const OpRegistry& registry,
                        const PrintOptions& options = {});

//! One literal or value argument as dialect source ("(1, 2)", "torch.float16",
//! "float('inf')", "slice(None, 2, None)"); values through `names`.
std::string print_arg(const Arg& arg, const std::vector<std::string>& names);

}  // namespace pf::dialect
