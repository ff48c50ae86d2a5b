// Internal: the state of one replacement run, shared by interpreter.cpp
// (statements, expressions, operators) and interpreter_calls.cpp (launch,
// allocations, metadata, builtins). Not part of the module's interface.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "evaluator/dialect/ast.h"
#include "evaluator/passes/interpreter.h"

namespace pf::passes {

class Run {
 public:
  Run(const LoadedPass& pass, const KernelTable& kernels, ReplacementBackend& backend,
      const InterpreterLimits& limits, ReplacementRun& out)
      : pass_(pass), kernels_(kernels), backend_(backend), limits_(limits), out_(out) {}

  //! Runs the body with the parameters bound; the returned value.
  Result<RValue> execute(const std::vector<RValue>& args);

  // statements and expressions (interpreter.cpp)
  Result<std::optional<RValue>> block(const std::vector<dialect::Stmt>& body);
  Result<std::optional<RValue>> statement(const dialect::Stmt& s);
  Status assign(const dialect::Expr& target, const RValue& value);
  //! Every value an expression produces passes here and is charged against
  //! InterpreterLimits::max_tuple_items / max_value_cells.
  Result<RValue> eval(const dialect::Expr& e);
  Result<RValue> eval_uncharged(const dialect::Expr& e);
  Result<RValue> unary(const dialect::Expr& e);
  Result<RValue> binary(dialect::Operator op, const RValue& a, const RValue& b, SourceLoc loc);
  Result<RValue> compare(const dialect::Expr& e);
  Result<bool> compare_pair(dialect::Operator op, const RValue& a, const RValue& b, SourceLoc loc);
  Result<RValue> subscript(const dialect::Expr& e);
  Result<RValue> attribute(const dialect::Expr& e);
  Result<bool> truth(const RValue& v, SourceLoc loc);

  // calls (interpreter_calls.cpp)
  Result<RValue> call(const dialect::Expr& e);
  Result<RValue> launch(const dialect::Expr& e);
  Result<RValue> allocation(const dialect::Expr& e, const std::string& function);
  Result<RValue> metadata_method(const dialect::Expr& e, const std::string& method);
  Result<RValue> builtin(const dialect::Expr& e, const std::string& function);
  Result<cuda::LaunchConfig> launch_config(const dialect::Expr& e);
  Result<std::array<int64_t, 3>> dims3(const RValue& v, const char* what, SourceLoc loc);

  // helpers
  Error error(SourceLoc loc, const std::string& message) const;
  //! An error that marks the run as ended by a resource limit.
  Error limit_error(SourceLoc loc, const std::string& message);
  Status charge(const RValue& v, SourceLoc loc);
  bool limit_hit() const { return limit_hit_; }
  Result<int64_t> to_int(const RValue& v, const std::string& what, SourceLoc loc) const;
  Result<const TensorMeta*> to_tensor(const RValue& v, const std::string& what,
                                      SourceLoc loc) const;
  std::string show(const RValue& v) const { return render(v, out_.tensors); }

  SourceLoc return_loc;  // of the return statement that ended the run

 private:
  const LoadedPass& pass_;
  const KernelTable& kernels_;
  ReplacementBackend& backend_;
  const InterpreterLimits& limits_;
  ReplacementRun& out_;
  std::map<std::string, RValue> locals_;
  int64_t allocated_bytes_ = 0;
  int allocations_ = 0;
  int64_t value_cells_ = 0;
  bool limit_hit_ = false;
};

}  // namespace pf::passes
