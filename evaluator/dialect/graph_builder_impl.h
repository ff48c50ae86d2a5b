// Internal: the state of one build_graph call, shared by graph_builder.cpp
// (statements, names, in-place effects) and graph_builder_expr.cpp
// (expressions, calls, operators). Not part of the module's interface.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "evaluator/dialect/graph_builder.h"

namespace pf::dialect {

class GraphBuilder {
 public:
  GraphBuilder(const OpRegistry& registry, const BuildOptions& options, std::vector<OpUse>* unknown)
      : registry_(registry), options_(options), unknown_(unknown) {}

  Result<Graph> build(const FunctionDef& fn);

 private:
  // statements and names (graph_builder.cpp)
  Status statement(const Stmt& s);
  Status assign(const Stmt& s);
  Status aug_assign(const Stmt& s);
  Status bind_target(const Expr& target, const Arg& value);
  //! `x[index] = value`: a setitem node replacing x (graph_builder.h).
  Status assign_item(const Expr& target, const Arg& value);
  Status set_outputs(const Stmt& ret);
  //! Binds `name`, keeping each reachable value's name one that refers to it.
  void bind(const std::string& name, const Arg& value);
  void unbind(const std::string& name);
  Result<Arg> lookup(const Expr& name_expr);
  std::string fresh_name();
  //! The in-place effect of an op on `target` whose result is `result`.
  void mutate(ValueId target, ValueId result, SourceLoc loc);
  ValueId storage_root(ValueId v) const;
  Status check_usable(const Arg& arg, SourceLoc loc) const;
  Error error(SourceLoc loc, const std::string& message) const;

  // expressions (graph_builder_expr.cpp)
  //! `hint` names the value of a node this expression itself produces
  //! (assignment target); "" gives a fresh name. Nested nodes always get
  //! fresh names.
  Result<Arg> eval(const Expr& e, const std::string& hint);
  Result<Arg> eval_attribute(const Expr& e, const std::string& hint);
  Result<Arg> eval_unary(const Expr& e, const std::string& hint);
  Result<Arg> eval_binary(const Expr& e, const std::string& hint);
  Result<Arg> eval_compare(const Expr& e, const std::string& hint);
  Result<Arg> eval_subscript(const Expr& e, const std::string& hint);
  Result<Arg> eval_index(const Expr& e);
  Result<Arg> eval_call(const Expr& e, const std::string& hint);
  //! `x.copy_(src)`, `x.requires_grad_()`, `operator.setitem(x, i, v)`,
  //! `x.__setitem__(i, v)`; `handled` says whether spelling was one.
  Result<Arg> item_write_call(const std::string& spelling, const std::vector<Arg>& positional,
                              const std::vector<std::pair<std::string, Arg>>& keywords,
                              SourceLoc loc, bool& handled);
  Result<Arg> special_call(const std::string& spelling, const Expr& e, bool& handled);
  //! setitem(x, index, value), x's names rebound to it; `x.copy_(src)` is
  //! `x[...] = src`.
  Result<Arg> set_item(const Arg& target, Arg index, const Arg& value, SourceLoc loc);
  Result<Arg> tuple_get(const Arg& list, int64_t index, SourceLoc loc, const std::string& hint);
  //! Adds the node for `spelling` (already canonical). `inplace_target` is
  //! the mutated value for in-place forms, kNoValue otherwise.
  Result<Arg> emit(const std::string& spelling, const OpInfo* op, std::vector<Arg> positional,
                   std::vector<std::pair<std::string, Arg>> keywords, SourceLoc loc,
                   const std::string& hint, ValueId inplace_target);
  const OpInfo* resolve(const std::string& spelling, SourceLoc loc, Status& status);

  const OpRegistry& registry_;
  const BuildOptions& options_;
  std::vector<OpUse>* unknown_;
  Graph g_;
  std::map<std::string, Arg> scope_;      // name -> value reference or literal
  std::map<ValueId, std::string> stale_;  // value -> why it can no longer be read
  std::set<std::string> taken_names_;     // every identifier of the function + generated ones
  int fresh_counter_ = 0;
  bool unknown_seen_ = false;
};

}  // namespace pf::dialect
