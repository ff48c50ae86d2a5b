// One pass of a workspace, parsed and checked: the pattern as a graph (built
// by the dialect's graph builder, so canonical ops and normalised arguments)
// and the replacement as a syntax tree that passed the replacement-language
// check (replacement_check.h). Everything a model can get wrong in the Python
// is reported here, at load time, with file:line.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/dialect/ast.h"
#include "evaluator/dialect/spelling.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/workspace.h"

namespace pf::passes {

//! How the pattern uses a parameter: in tensor positions, literal positions,
//! or positions that take either (`x + y`). Drives load-time checks such as
//! "subscripting a tensor".
enum class ParamUse { tensor, literal, either };

//! A `launch("k", ..., args=(...))` whose kernel name is a string literal.
struct LaunchSite {
  std::string kernel;
  SourceLoc loc;
  int arg_count = -1;  // when args= is a literal tuple/list; -1 otherwise
};

struct LoadedPass {
  std::string name;    // "FuseRope"
  std::string file;    // "passes/FuseRope.py"
  std::string source;  // the file's text (diagnostics quote its lines)
  Graph pattern;
  dialect::FunctionDef replacement;
  std::vector<ParamUse> param_uses;  // one per pattern input
  std::vector<LaunchSite> launches;
  dialect::ModuleAliases aliases;  // the file's imports, for spellings in the replacement

  //! The op name of this pass's replacement-call nodes in rewritten graphs.
  std::string call_op() const;
};

//! Replacement-call nodes are named "pass.<Name>": `pass` is a Python
//! keyword, so no op spelling or graph source can ever produce one, and a
//! printed rewritten graph reads `tmp_3 = pass.FuseRope(in_0, in_1)`.
inline constexpr const char* kCallOpPrefix = "pass.";
bool is_call_op(const std::string& op);
std::string call_op_pass_name(const std::string& op);

//! Parses and checks one pass file.
Result<LoadedPass> load_pass(const std::string& name, const std::string& source,
                             const OpRegistry& registry);

//! Every pass of the workspace in application order. Errors of all passes
//! are reported together (one per line), so one round of feedback fixes all.
Result<std::vector<LoadedPass>> load_passes(const PassWorkspace& workspace,
                                            const OpRegistry& registry);

}  // namespace pf::passes
