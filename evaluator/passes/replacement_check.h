// The load-time check of a replacement body: everything outside the
// replacement language (replacement_language.h) is rejected with its
// location and a short explanation of what is allowed, before any variant is
// touched. The interpreter re-checks what only values can tell (a tensor
// where an int belongs, float arithmetic, ...).
#pragma once

#include <string>
#include <vector>

#include "evaluator/dialect/ast.h"
#include "evaluator/dialect/spelling.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/loaded_pass.h"

namespace pf::passes {

struct ReplacementCheckContext {
  std::string file;                 // prefixes messages ("passes/Fuse.py")
  std::vector<std::string> params;  // the pattern's parameter names
  std::vector<ParamUse> uses;       // how the pattern uses each
  size_t output_count = 1;          // values the pattern returns
  const OpRegistry* registry = nullptr;
  dialect::ModuleAliases aliases;
};

//! Appends every violation ("file:line:col: message") to `errors` and every
//! launch with a literal kernel name to `launches`.
void check_replacement(const dialect::FunctionDef& fn, const ReplacementCheckContext& ctx,
                       std::vector<std::string>& errors, std::vector<LaunchSite>& launches);

}  // namespace pf::passes
