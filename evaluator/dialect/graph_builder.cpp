// Statements, name binding and in-place effects of the graph builder.
// Expressions are in graph_builder_expr.cpp.
#include "evaluator/dialect/graph_builder.h"

#include <algorithm>

#include "common/strings.h"
#include "evaluator/dialect/graph_builder_impl.h"
#include "evaluator/dialect/literal.h"
#include "evaluator/dialect/module_access.h"
#include "evaluator/dialect/parser.h"
#include "evaluator/dialect/syntax_error.h"

namespace pf::dialect {
namespace {

void collect_names(const Expr& e, std::set<std::string>& out) {
  if (e.kind == Expr::Kind::name) out.insert(e.text);
  for (const auto& c : e.children) collect_names(c, out);
  for (const auto& k : e.keywords) collect_names(k.value, out);
}

void collect_names(const std::vector<Stmt>& body, std::set<std::string>& out) {
  for (const auto& s : body) {
    for (const auto& t : s.targets) collect_names(t, out);
    collect_names(s.value, out);
    for (const auto& b : s.branches) {
      collect_names(b.condition, out);
      collect_names(b.body, out);
    }
    collect_names(s.orelse, out);
  }
}

void collect_values(const Arg& a, std::vector<ValueId>& out) {
  if (a.is_value()) out.push_back(a.value);
  for (const auto& item : a.items) collect_values(item, out);
}

}  // namespace

Error GraphBuilder::error(SourceLoc loc, const std::string& message) const {
  return syntax_error(options_.file, loc, message);
}

std::string GraphBuilder::fresh_name() {
  while (true) {
    std::string name = "t" + std::to_string(fresh_counter_++);
    if (taken_names_.insert(name).second) return name;
  }
}

Result<Graph> GraphBuilder::build(const FunctionDef& fn) {
  g_.name = fn.name;
  for (const auto& p : fn.params) taken_names_.insert(p.name);
  collect_names(fn.body, taken_names_);
  for (size_t k = 0; k < fn.params.size(); ++k) {
    const Param& p = fn.params[k];
    if (k == 0 && p.name == "self") continue;
    if (p.default_value) {
      return error(
          p.default_value->loc,
          "parameter '" + p.name + "' has a default value; graph function parameters cannot");
    }
    ValueId v = g_.add_value(p.name, false, -1);
    g_.inputs.push_back(v);
    bind(p.name, Arg::make_value(v));
  }
  const Stmt* ret = nullptr;
  for (const auto& s : fn.body) {
    if (ret != nullptr) {
      return error(s.loc, "unreachable statement after 'return' at " + short_loc(ret->loc));
    }
    if (s.kind == Stmt::Kind::return_stmt) {
      ret = &s;
      PF_TRY(set_outputs(s));
      continue;
    }
    PF_TRY(statement(s));
  }
  if (unknown_seen_) {
    return make_error(
        ErrorCode::unsupported,
        options_.file + ": " + std::to_string(unknown_->size()) + " unknown op spelling(s)");
  }
  if (ret == nullptr) {
    return error(fn.loc,
                 "function '" + fn.name + "' has no return statement; end it with 'return (...)'");
  }
  return std::move(g_);
}

Status GraphBuilder::statement(const Stmt& s) {
  switch (s.kind) {
    case Stmt::Kind::assign:
      return assign(s);
    case Stmt::Kind::aug_assign:
      return aug_assign(s);
    case Stmt::Kind::pass:
      return ok_status();
    case Stmt::Kind::expression: {
      const Expr& v = s.value;
      bool literal = v.kind == Expr::Kind::string || v.kind == Expr::Kind::ellipsis ||
                     v.kind == Expr::Kind::none || v.is_literal_number();
      if (literal) return ok_status();  // docstrings and `...` placeholders
      PF_ASSIGN(Arg ignored, eval(v, ""));
      (void)ignored;
      return ok_status();
    }
    case Stmt::Kind::if_stmt:
      return error(
          s.loc,
          "'if' statements are not supported in graph functions (only in replacement bodies)");
    case Stmt::Kind::unsupported:
      return error(s.loc, "'" + s.keyword + "' statements are not supported in the graph dialect");
    case Stmt::Kind::return_stmt:
      break;
  }
  return error(s.loc, "unexpected statement");
}

Status GraphBuilder::assign(const Stmt& s) {
  bool all_names = true;
  for (const auto& t : s.targets) all_names = all_names && t.kind == Expr::Kind::name;
  if (s.value.kind == Expr::Kind::none && all_names) {
    for (const auto& t : s.targets) unbind(t.text);  // dynamo's `x = None` cleanup lines
    return ok_status();
  }
  std::string hint = s.targets[0].kind == Expr::Kind::name ? s.targets[0].text : "";
  PF_ASSIGN(Arg value, eval(s.value, hint));
  for (const auto& t : s.targets) PF_TRY(bind_target(t, value));
  return ok_status();
}

Status GraphBuilder::bind_target(const Expr& t, const Arg& value) {
  switch (t.kind) {
    case Expr::Kind::name:
      bind(t.text, value);
      return ok_status();
    case Expr::Kind::attribute:
      return error(t.loc, "assignment to attribute '" + t.text +
                              "' is not supported: graphs do not mutate state");
    case Expr::Kind::subscript:
      return assign_item(t, value);
    case Expr::Kind::tuple:
    case Expr::Kind::list:
      break;
    default:
      return error(t.loc, "cannot assign to " + describe_expr(t));
  }
  if (value.is_value() && g_.values[value.value].is_list) {
    for (size_t k = 0; k < t.children.size(); ++k) {
      const Expr& item = t.children[k];
      if (item.kind != Expr::Kind::name) {
        return error(item.loc, "unpacking a tensor list needs plain names as targets");
      }
      PF_ASSIGN(Arg element, tuple_get(value, static_cast<int64_t>(k), item.loc, item.text));
      bind(item.text, element);
    }
    return ok_status();
  }
  if (value.is_sequence()) {
    if (value.items.size() != t.children.size()) {
      return error(t.loc, "cannot unpack " + std::to_string(value.items.size()) + " values into " +
                              std::to_string(t.children.size()) + " targets");
    }
    for (size_t k = 0; k < t.children.size(); ++k)
      PF_TRY(bind_target(t.children[k], value.items[k]));
    return ok_status();
  }
  return error(
      t.loc,
      value.is_value()
          ? "cannot unpack a tensor into " + std::to_string(t.children.size()) +
                " names: only ops returning tensor lists (split, unbind, ...) can be unpacked"
          : "cannot unpack a literal that is not a tuple or list");
}

Status GraphBuilder::assign_item(const Expr& t, const Arg& value) {
  const Expr& object = t.children[0];
  if (object.kind != Expr::Kind::name) {
    return error(t.loc, "item assignment needs a plain name before '[': 'x[...] = value'");
  }
  PF_ASSIGN(Arg current, lookup(object));
  if (!current.is_value() || g_.values[current.value].is_list) {
    return error(t.loc, "item assignment needs a tensor ('" + object.text + "' is not one)");
  }
  PF_ASSIGN(Arg index, eval_index(t.children[1]));
  PF_ASSIGN(Arg ignored, set_item(current, std::move(index), value, t.loc));
  (void)ignored;
  return ok_status();
}

Status GraphBuilder::aug_assign(const Stmt& s) {
  const Expr& t = s.targets[0];
  if (t.kind != Expr::Kind::name) {
    return error(t.loc, std::string("augmented assignment '") + operator_symbol(s.op) +
                            "=' needs a plain name as its target");
  }
  PF_ASSIGN(Arg current, lookup(t));
  PF_ASSIGN(Arg rhs, eval(s.value, ""));
  if (!current.is_value()) {
    // `n += 1` on a literal: Python rebinds n to n + 1.
    if (!rhs.references_values()) {
      auto folded = fold_binary(s.op, current, rhs);
      if (!folded) {
        return error(s.loc, std::string("operator '") + operator_symbol(s.op) +
                                "=' is not supported on these literals");
      }
      if (!folded->ok()) return error(s.loc, folded->error().message);
      bind(t.text, folded->value());
      return ok_status();
    }
    std::string spelling = std::string("operator.") + operator_name(s.op);
    Status st;
    const OpInfo* op = resolve(spelling, s.loc, st);
    PF_TRY(st);
    PF_ASSIGN(Arg out, emit(spelling, op, {current, rhs}, {}, s.loc, t.text, kNoValue));
    bind(t.text, out);
    return ok_status();
  }
  std::string name = operator_name(s.op);
  std::string spelling = "operator.i" + name;
  if (registry_.find_alias(spelling) == nullptr) spelling = "operator." + name;
  if (g_.values[current.value].is_list) {
    return error(t.loc, "in-place '" + std::string(operator_symbol(s.op)) + "=' on a tensor list");
  }
  Status st;
  const OpInfo* op = resolve(spelling, s.loc, st);
  PF_TRY(st);
  PF_ASSIGN(Arg out, emit(spelling, op, {current, rhs}, {}, s.loc, t.text, current.value));
  bind(t.text, out);
  return ok_status();
}

Status GraphBuilder::set_outputs(const Stmt& ret) {
  if (!ret.has_value) return error(ret.loc, "'return' needs the graph's outputs: 'return (a, b)'");
  const Expr& v = ret.value;
  std::vector<const Expr*> items;
  if (v.kind == Expr::Kind::tuple || v.kind == Expr::Kind::list) {
    for (const auto& c : v.children) items.push_back(&c);
  } else {
    items.push_back(&v);
  }
  if (items.empty()) return error(ret.loc, "a graph must return at least one tensor");
  for (const Expr* item : items) {
    PF_ASSIGN(Arg out, eval(*item, ""));
    if (!out.is_value()) {
      return error(item->loc, "a graph returns tensors; " + describe_expr(*item) + " is not one");
    }
    g_.outputs.push_back(out.value);
  }
  return ok_status();
}

void GraphBuilder::bind(const std::string& name, const Arg& value) {
  taken_names_.insert(name);
  auto it = scope_.find(name);
  if (it != scope_.end() && !(it->second == value)) unbind(name);
  scope_[name] = value;
}

void GraphBuilder::unbind(const std::string& name) {
  auto it = scope_.find(name);
  if (it == scope_.end()) return;
  Arg old = it->second;
  scope_.erase(it);
  if (!old.is_value() || g_.values[old.value].name != name) return;
  // The value loses the name it is printed under. Another name bound to it
  // takes over; if only literals (`t = (a, b)`) still hold it, it gets a
  // fresh name so printed code never refers to a shadowed name.
  ValueId v = old.value;
  for (const auto& [other, arg] : scope_) {
    if (arg.is_value() && arg.value == v) {
      g_.values[v].name = other;
      return;
    }
  }
  for (const auto& [other, arg] : scope_) {
    std::vector<ValueId> held;
    collect_values(arg, held);
    for (ValueId h : held) {
      if (h == v) {
        g_.values[v].name = fresh_name();
        return;
      }
    }
  }
}

Result<Arg> GraphBuilder::lookup(const Expr& e) {
  auto it = scope_.find(e.text);
  if (it == scope_.end()) {
    // Python's builtin constants that dynamo writes by name (`x[Ellipsis, 0]`).
    if (auto c = named_constant(e.text)) return *c;
    std::vector<std::string> names;
    for (const auto& [n, a] : scope_) names.push_back(n);
    std::string hint = closest_match(e.text, names);
    // A suggestion sharing nothing with the word ('y' for 'x') is noise.
    if (edit_distance(e.text, hint) >= std::max(e.text.size(), hint.size())) hint.clear();
    return error(e.loc, "name '" + e.text + "' is not defined" +
                            (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
  }
  PF_TRY(check_usable(it->second, e.loc));
  return it->second;
}

Status GraphBuilder::check_usable(const Arg& arg, SourceLoc loc) const {
  std::vector<ValueId> held;
  collect_values(arg, held);
  for (ValueId v : held) {
    auto it = stale_.find(v);
    if (it != stale_.end()) return error(loc, it->second);
  }
  return ok_status();
}

ValueId GraphBuilder::storage_root(ValueId v) const {
  // Bounded walk: producers always come earlier in program order.
  while (v != kNoValue && g_.values[v].producer >= 0) {
    const Node& n = g_.nodes[g_.values[v].producer];
    const OpInfo* op = registry_.find(n.op);
    bool view = n.op == "tuple_get" || (op != nullptr && (op->is_view || op->may_alias));
    if (!view) break;
    auto operands = Graph::node_operands(n);
    if (operands.empty()) break;
    v = operands[0];
  }
  return v;
}

void GraphBuilder::mutate(ValueId target, ValueId result, SourceLoc loc) {
  if (options_.inplace_effects != nullptr) {
    options_.inplace_effects->push_back(InplaceEffect{target, result, loc});
  }
  ValueId root = storage_root(target);
  std::string why = "'" + g_.values[target].name + "' was modified in place at " + short_loc(loc) +
                    "; passforge graphs are pure, so tensors sharing its storage cannot be used "
                    "after that (use the result of the in-place operation instead)";
  for (ValueId u = 0; u < result; ++u) {
    if (storage_root(u) == root) stale_.emplace(u, why);
  }
  for (auto& [name, arg] : scope_) {
    if (arg.is_value() && arg.value == target) arg = Arg::make_value(result);
  }
}

BuildOptions build_options_for(const Module& module) {
  BuildOptions o;
  o.file = module.file;
  o.module_aliases = module_aliases(module);
  return o;
}

Result<Graph> build_graph(const FunctionDef& fn, const OpRegistry& registry,
                          const BuildOptions& options, std::vector<OpUse>* unknown_ops) {
  return GraphBuilder(registry, options, unknown_ops).build(fn);
}

Result<Graph> load_graph(std::string_view source, std::string file, const OpRegistry& registry,
                         std::string_view function, std::vector<InplaceEffect>* inplace_effects) {
  PF_ASSIGN(Module module, parse_module(source, std::move(file)));
  const FunctionDef* fn = nullptr;
  if (function == "forward") {
    PF_ASSIGN(fn, find_forward(module));
  } else {
    PF_ASSIGN(fn, require_function(module, function));
  }
  BuildOptions options = build_options_for(module);
  options.inplace_effects = inplace_effects;
  return build_graph(*fn, registry, options);
}

}  // namespace pf::dialect
