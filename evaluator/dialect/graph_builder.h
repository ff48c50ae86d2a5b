// From a parsed function to the graph IR: parameters become inputs, calls and
// operators become nodes of canonical ops with normalised arguments (through
// OpRegistry::normalize), `return` defines the outputs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/dialect/ast.h"
#include "evaluator/dialect/spelling.h"
#include "evaluator/ops/op_registry.h"

namespace pf::dialect {

//! An in-place form (`x += y`, `x.add_(y)`, `x.__iadd__(y)`): `result`
//! replaced `target`. PyTorch keeps the target's dtype and shape there; the
//! pure graph computes the out-of-place op, so callers that know types check
//! that both agree.
struct InplaceEffect {
  ValueId target = kNoValue;
  ValueId result = kNoValue;
  SourceLoc loc;
};

struct BuildOptions {
  std::string file;  // prefixes error messages ("<input>" when empty)
  ModuleAliases module_aliases = default_module_aliases();
  //! When set, receives every in-place effect, in program order.
  std::vector<InplaceEffect>* inplace_effects = nullptr;
};

//! The options a module implies: its file name and its import aliases.
BuildOptions build_options_for(const Module& module);

//! An op spelling the registry does not know, and where it was written.
struct OpUse {
  std::string spelling;
  SourceLoc loc;
};

//! Builds the graph of `fn`. Semantics worth knowing:
//! - `self` (a first parameter of that name) is dropped; other parameters are
//!   the inputs. `return a` / `return (a, b)` define the outputs.
//! - nested expressions become extra nodes with fresh names ("t0", ...) that
//!   collide with no name in the function; `x = None` lines are dropped (the
//!   name becomes undefined); `x = y` only rebinds.
//! - in-place forms (`x += y`, `x.clamp_()`, `torch.relu_(x)`, `inplace=True`)
//!   become the out-of-place op with every name of `x` rebound to the result;
//!   other views of the same storage can no longer be used (an error says so).
//! - an op that returns a tensor list gives a list value; `t[0]` and
//!   `a, b = t` become `tuple_get` nodes.
//! Errors are "file:line:col: message". When `unknown_ops` is given, unknown
//! op spellings are collected there and building continues (the result is
//! still an error), so one pass reports every missing op.
Result<Graph> build_graph(const FunctionDef& fn, const OpRegistry& registry,
                          const BuildOptions& options = {},
                          std::vector<OpUse>* unknown_ops = nullptr);

//! Parses `source` and builds the graph of `function`: "forward" means the
//! `forward` method of class GraphModule (or of the only class having one, or
//! a top-level `forward`); any other name is a top-level function.
//! `inplace_effects` as in BuildOptions.
Result<Graph> load_graph(std::string_view source, std::string file, const OpRegistry& registry,
                         std::string_view function = "forward",
                         std::vector<InplaceEffect>* inplace_effects = nullptr);

}  // namespace pf::dialect
