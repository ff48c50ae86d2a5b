// Expressions of the graph builder: names, literals, operators, subscripts
// and calls, flattened into nodes. Statements are in graph_builder.cpp.
#include <cmath>
#include <utility>

#include "common/strings.h"
#include "evaluator/dialect/graph_builder_impl.h"
#include "evaluator/dialect/literal.h"
#include "evaluator/dialect/syntax_error.h"

namespace pf::dialect {
namespace {

bool reads_value(const Arg& a, ValueId v) {
  if (a.is_value() && a.value == v) return true;
  for (const auto& item : a.items) {
    if (reads_value(item, v)) return true;
  }
  return false;
}

std::string root_of(const std::string& path) {
  return path.substr(0, path.find('.'));
}

// `inplace=True`, by keyword or in the position of a parameter named inplace.
bool inplace_requested(const OpInfo* op, const std::vector<Arg>& positional,
                       const std::vector<std::pair<std::string, Arg>>& keywords) {
  for (const auto& [k, v] : keywords) {
    if (k == "inplace") return v.kind == Arg::Kind::boolean && v.b;
  }
  if (op == nullptr) return false;
  size_t slot = 0;
  for (const auto& p : op->params) {
    if (p.keyword_only) continue;
    if (p.varargs || slot >= positional.size()) break;
    if (p.name == "inplace") {
      return positional[slot].kind == Arg::Kind::boolean && positional[slot].b;
    }
    ++slot;
  }
  return false;
}

}  // namespace

Result<Arg> GraphBuilder::eval(const Expr& e, const std::string& hint) {
  switch (e.kind) {
    case Expr::Kind::name:
      if (scope_.count(e.text) == 0 &&
          (options_.module_aliases.count(e.text) != 0 || e.text == "torch" || e.text == "math" ||
           e.text == "operator")) {
        return error(e.loc, "'" + e.text + "' is a module, not a value");
      }
      return lookup(e);
    case Expr::Kind::integer:
    case Expr::Kind::real:
    case Expr::Kind::string:
    case Expr::Kind::boolean:
    case Expr::Kind::none:
    case Expr::Kind::ellipsis:
      return literal_value(e, options_.file);
    case Expr::Kind::tuple:
    case Expr::Kind::list: {
      std::vector<Arg> items;
      for (const auto& c : e.children) {
        PF_ASSIGN(Arg item, eval(c, ""));
        items.push_back(std::move(item));
      }
      return e.kind == Expr::Kind::tuple ? Arg::make_tuple(std::move(items))
                                         : Arg::make_list(std::move(items));
    }
    case Expr::Kind::attribute:
      return eval_attribute(e, hint);
    case Expr::Kind::unary:
      return eval_unary(e, hint);
    case Expr::Kind::binary:
      return eval_binary(e, hint);
    case Expr::Kind::compare:
      return eval_compare(e, hint);
    case Expr::Kind::subscript:
      return eval_subscript(e, hint);
    case Expr::Kind::call:
      return eval_call(e, hint);
    case Expr::Kind::slice:
      return error(e.loc, "a slice ('a:b') is only valid inside a subscript");
    case Expr::Kind::bool_op:
      return error(e.loc, std::string("'") + operator_symbol(e.op) +
                              "' is not supported in graph functions (on tensors use '&' / '|')");
    case Expr::Kind::conditional:
    case Expr::Kind::unsupported:
      return error(e.loc, describe_expr(e) + " is not supported in graph functions");
  }
  return error(e.loc, "unexpected expression");
}

Result<Arg> GraphBuilder::eval_attribute(const Expr& e, const std::string& hint) {
  auto path = dotted_path(e);
  if (path && scope_.count(root_of(*path)) == 0) {
    std::string spelling = canonical_spelling(*path, options_.module_aliases);
    if (auto c = named_constant(spelling)) return *c;
    return error(e.loc, "'" + *path + "' is not a value (a call needs parentheses)");
  }
  PF_ASSIGN(Arg object, eval(e.children[0], ""));
  if (object.is_value() && !g_.values[object.value].is_list && (e.text == "T" || e.text == "mT")) {
    // `x.T` is `x.t()` (PyTorch's deprecated reversal of more than two dims
    // is refused there); `x.mT` swaps the last two dims.
    std::vector<Arg> args = {object};
    std::string spelling = "Tensor.t";
    if (e.text == "mT") {
      spelling = "Tensor.transpose";
      args.push_back(Arg::make_int(-2));
      args.push_back(Arg::make_int(-1));
    }
    Status st;
    const OpInfo* op = resolve(spelling, e.loc, st);
    PF_TRY(st);
    return emit(spelling, op, std::move(args), {}, e.loc, hint, kNoValue);
  }
  if (object.is_value()) {
    return error(e.loc, "tensor attributes ('" + g_.values[object.value].name + "." + e.text +
                            "') are not supported in graph functions");
  }
  return error(e.loc, "attribute '" + e.text + "' of a literal is not supported");
}

Result<Arg> GraphBuilder::eval_unary(const Expr& e, const std::string& hint) {
  PF_ASSIGN(Arg operand, eval(e.children[0], ""));
  if (!operand.references_values()) {
    if (auto folded = fold_unary(e.op, operand)) return *folded;
    return error(e.loc, std::string("unary '") + operator_symbol(e.op) + "' is not supported on " +
                            describe_expr(e.children[0]));
  }
  if (e.op == Operator::not_) {
    return error(e.loc, "'not' on a tensor is ambiguous; use '~' or torch.logical_not");
  }
  std::string spelling = std::string("operator.") + operator_name(e.op);
  Status st;
  const OpInfo* op = resolve(spelling, e.loc, st);
  PF_TRY(st);
  return emit(spelling, op, {operand}, {}, e.loc, hint, kNoValue);
}

Result<Arg> GraphBuilder::eval_binary(const Expr& e, const std::string& hint) {
  PF_ASSIGN(Arg left, eval(e.children[0], ""));
  PF_ASSIGN(Arg right, eval(e.children[1], ""));
  if (!left.references_values() && !right.references_values()) {
    auto folded = fold_binary(e.op, left, right);
    if (!folded) {
      return error(e.loc, std::string("operator '") + operator_symbol(e.op) +
                              "' is not supported between " + describe_expr(e.children[0]) +
                              " and " + describe_expr(e.children[1]));
    }
    if (!folded->ok()) return error(e.loc, folded->error().message);
    return std::move(*folded).value();
  }
  std::string spelling = std::string("operator.") + operator_name(e.op);
  Status st;
  const OpInfo* op = resolve(spelling, e.loc, st);
  PF_TRY(st);
  return emit(spelling, op, {left, right}, {}, e.loc, hint, kNoValue);
}

Result<Arg> GraphBuilder::eval_compare(const Expr& e, const std::string& hint) {
  if (e.compare_ops.size() > 1) {
    return error(e.loc,
                 "chained comparisons ('a < b < c') are not supported; compare twice and "
                 "combine with '&'");
  }
  Operator cmp = e.compare_ops[0];
  if (cmp == Operator::in || cmp == Operator::not_in || cmp == Operator::is ||
      cmp == Operator::is_not) {
    return error(e.loc,
                 std::string("'") + operator_symbol(cmp) + "' is not supported in graph functions");
  }
  PF_ASSIGN(Arg left, eval(e.children[0], ""));
  PF_ASSIGN(Arg right, eval(e.children[1], ""));
  if (!left.references_values() && !right.references_values()) {
    return error(e.loc, "comparing two literals is not supported in graph functions");
  }
  std::string spelling = std::string("operator.") + operator_name(cmp);
  Status st;
  const OpInfo* op = resolve(spelling, e.loc, st);
  PF_TRY(st);
  return emit(spelling, op, {left, right}, {}, e.loc, hint, kNoValue);
}

Result<Arg> GraphBuilder::eval_subscript(const Expr& e, const std::string& hint) {
  PF_ASSIGN(Arg object, eval(e.children[0], ""));
  PF_ASSIGN(Arg index, eval_index(e.children[1]));
  if (object.is_value() && g_.values[object.value].is_list) {
    if (index.kind != Arg::Kind::integer) {
      return error(e.children[1].loc, "a tensor list ('" + g_.values[object.value].name +
                                          "') can only be indexed with an integer literal");
    }
    return tuple_get(object, index.i, e.loc, hint);
  }
  if (object.is_value()) {
    Status st;
    const OpInfo* op = resolve("operator.getitem", e.loc, st);
    PF_TRY(st);
    return emit("operator.getitem", op, {object, index}, {}, e.loc, hint, kNoValue);
  }
  if (object.is_sequence() && index.kind == Arg::Kind::integer) {
    auto n = static_cast<int64_t>(object.items.size());
    int64_t k = index.i < 0 ? index.i + n : index.i;
    if (k < 0 || k >= n) return error(e.loc, "index " + std::to_string(index.i) + " out of range");
    return object.items[static_cast<size_t>(k)];
  }
  return error(e.loc, "cannot subscript " + describe_expr(e.children[0]));
}

Result<Arg> GraphBuilder::eval_index(const Expr& e) {
  if (e.kind == Expr::Kind::slice) {
    std::vector<Arg> parts;
    for (const auto& c : e.children) {
      PF_ASSIGN(Arg part, eval(c, ""));
      parts.push_back(std::move(part));
    }
    return Arg::make_slice(parts[0], parts[1], parts[2]);
  }
  if (e.kind == Expr::Kind::tuple) {
    std::vector<Arg> items;
    for (const auto& c : e.children) {
      PF_ASSIGN(Arg item, eval_index(c));
      items.push_back(std::move(item));
    }
    return Arg::make_tuple(std::move(items));
  }
  return eval(e, "");
}

Result<Arg> GraphBuilder::set_item(const Arg& target, Arg index, const Arg& value, SourceLoc loc) {
  if (!value.is_value() && !value.is_number() && value.kind != Arg::Kind::boolean) {
    return error(loc, "item assignment takes a tensor or a number as its value");
  }
  Status st;
  const OpInfo* op = resolve("operator.setitem", loc, st);
  PF_TRY(st);
  const ValueId x = target.value;
  const int producer = g_.values[x].producer;
  // The printed form of a setitem node, `y = x.clone()` then `y[i] = v`,
  // builds that one node again: a clone that is the last node, whose result
  // nothing has read, becomes the setitem (print_graph's contract).
  bool fuse = op != nullptr && producer >= 0 && producer + 1 == static_cast<int>(g_.nodes.size()) &&
              g_.nodes[producer].op == "clone";
  fuse = fuse && !reads_value(index, x) && !reads_value(value, x);
  if (fuse) {
    // Only a call that stays a setitem fuses (x[i, j] = v becomes index_put).
    std::vector<Arg> probe = {g_.nodes[producer].args[0], index, value};
    std::vector<std::pair<std::string, Arg>> no_keywords;
    fuse = &registry_.resolve(*op, "operator.setitem", probe, no_keywords) == op;
  }
  if (fuse) {
    Node& clone = g_.nodes[producer];
    auto args = registry_.normalize(*op, {clone.args[0], std::move(index), value}, {});
    if (!args.ok()) return error(loc, "item assignment: " + args.error().message);
    clone.op = op->name;
    clone.args = std::move(args).value();
    clone.loc = loc;
    return target;
  }
  // A value or index reading x itself: the printed copy cannot take x's name
  // (its second line reads x), so the result gets a fresh one from the start.
  const std::string hint = reads_value(index, x) || reads_value(value, x) ? fresh_name() : "";
  return emit("operator.setitem", op, {target, std::move(index), value}, {}, loc, hint, x);
}

Result<Arg> GraphBuilder::tuple_get(const Arg& list, int64_t index, SourceLoc loc,
                                    const std::string& hint) {
  const OpInfo* op = registry_.find("tuple_get");
  if (op == nullptr) {
    Status st;
    op = resolve("tuple_get", loc, st);
    PF_TRY(st);
  }
  return emit("tuple_get", op, {list, Arg::make_int(index)}, {}, loc, hint, kNoValue);
}

const OpInfo* GraphBuilder::resolve(const std::string& spelling, SourceLoc loc, Status& status) {
  if (spelling == "tuple_get") {
    if (const OpInfo* op = registry_.find(spelling)) return op;
  } else if (const OpInfo* op = find_op(registry_, spelling)) {
    return op;
  }
  if (unknown_ != nullptr) {
    unknown_->push_back(OpUse{spelling, loc});
    unknown_seen_ = true;
    return nullptr;
  }
  status = error(loc, unknown_op_message(registry_, spelling));
  return nullptr;
}

Result<Arg> GraphBuilder::eval_call(const Expr& e, const std::string& hint) {
  const Expr& callee = e.children[0];
  std::string spelling;
  std::vector<Arg> positional;
  if (callee.kind == Expr::Kind::attribute) {
    auto path = dotted_path(callee);
    if (path && scope_.count(root_of(*path)) == 0) {
      spelling = canonical_spelling(*path, options_.module_aliases);
    } else {
      PF_ASSIGN(Arg receiver, eval(callee.children[0], ""));
      if (!receiver.is_value()) {
        return error(callee.loc, "method '" + callee.text + "' called on " +
                                     describe_expr(callee.children[0]) + ", not on a tensor");
      }
      positional.push_back(receiver);
      spelling = "Tensor." + callee.text;
    }
  } else if (callee.kind == Expr::Kind::name) {
    if (scope_.count(callee.text) != 0) {
      return error(callee.loc, "'" + callee.text + "' is a value, not a function");
    }
    spelling = canonical_spelling(callee.text, options_.module_aliases);
  } else {
    return error(callee.loc,
                 "only functions and tensor methods can be called, not " + describe_expr(callee));
  }
  bool handled = false;
  PF_ASSIGN(Arg special, special_call(spelling, e, handled));
  if (handled) return special;
  for (size_t k = 1; k < e.children.size(); ++k) {
    PF_ASSIGN(Arg arg, eval(e.children[k], ""));
    positional.push_back(std::move(arg));
  }
  std::vector<std::pair<std::string, Arg>> keywords;
  for (const auto& kw : e.keywords) {
    PF_ASSIGN(Arg arg, eval(kw.value, ""));
    keywords.emplace_back(kw.name, std::move(arg));
  }
  bool handled_write = false;
  PF_ASSIGN(Arg written, item_write_call(spelling, positional, keywords, e.loc, handled_write));
  if (handled_write) return written;
  // `x.__rsub__(y)` is `y - x`: the operator with its operands swapped.
  if (auto op_spelling = reflected_operator(registry_, spelling);
      op_spelling && positional.size() == 2 && keywords.empty()) {
    std::swap(positional[0], positional[1]);
    spelling = *op_spelling;
  }
  // `x.__isub__(y)` is `x -= y`: the operator, modifying its receiver.
  bool inplace_dunder = false;
  if (auto op_spelling = inplace_operator(registry_, spelling);
      op_spelling && positional.size() == 2 && keywords.empty()) {
    spelling = *op_spelling;
    inplace_dunder = true;
  }
  Status st;
  const OpInfo* op = resolve(spelling, e.loc, st);
  PF_TRY(st);
  ValueId target = kNoValue;
  if (inplace_dunder || is_inplace_spelling(spelling) ||
      inplace_requested(op, positional, keywords)) {
    if (positional.empty() || !positional[0].is_value() || g_.values[positional[0].value].is_list) {
      return error(e.loc,
                   "in-place '" + spelling + "' needs a tensor to modify as its first argument");
    }
    target = positional[0].value;
  }
  return emit(spelling, op, std::move(positional), std::move(keywords), e.loc, hint, target);
}

Result<Arg> GraphBuilder::item_write_call(const std::string& spelling,
                                          const std::vector<Arg>& positional,
                                          const std::vector<std::pair<std::string, Arg>>& keywords,
                                          SourceLoc loc, bool& handled) {
  handled = spelling == "Tensor.copy_" || spelling == "Tensor.requires_grad_" ||
            spelling == "operator.setitem" || spelling == "Tensor.__setitem__";
  if (!handled) return Arg::make_none();
  if (positional.empty() || !positional[0].is_value() || g_.values[positional[0].value].is_list) {
    return error(loc, "'" + spelling + "' needs a tensor to modify as its first argument");
  }
  const Arg& self = positional[0];
  // Autograd state has no effect on values.
  if (spelling == "Tensor.requires_grad_") return self;
  if (spelling == "Tensor.copy_") {
    // copy_(src, non_blocking=False): non_blocking only changes when a
    // host-device copy may return.
    const Arg* src = positional.size() >= 2 ? &positional[1] : nullptr;
    for (const auto& [name, v] : keywords) {
      if (name == "src") {
        src = &v;
      } else if (name != "non_blocking") {
        return error(loc, "copy_() has no argument '" + name + "'");
      }
    }
    if (src == nullptr || !src->is_value() || positional.size() > 3) {
      return error(loc, "copy_() takes a source tensor: 'x.copy_(src)'");
    }
    return set_item(self, Arg::make_ellipsis(), *src, loc);
  }
  if (positional.size() != 3 || !keywords.empty()) {
    return error(loc, "'" + spelling + "' takes a tensor, an index and a value");
  }
  PF_ASSIGN(Arg out, set_item(self, positional[1], positional[2], loc));
  (void)out;
  return Arg::make_none();  // as Python's setitem
}

Result<Arg> GraphBuilder::special_call(const std::string& spelling, const Expr& e, bool& handled) {
  handled = true;
  size_t nargs = e.children.size() - 1;
  auto arg_at = [&](size_t k) -> const Expr& { return e.children[k + 1]; };
  if (spelling == "slice") {
    if (nargs < 1 || nargs > 3 || !e.keywords.empty()) {
      return error(e.loc, "slice() takes 1 to 3 positional arguments");
    }
    std::vector<Arg> parts;
    for (size_t k = 0; k < nargs; ++k) {
      PF_ASSIGN(Arg part, eval(arg_at(k), ""));
      parts.push_back(std::move(part));
    }
    if (nargs == 1) return Arg::make_slice(Arg::make_none(), parts[0], Arg::make_none());
    return Arg::make_slice(parts[0], parts[1], nargs == 3 ? parts[2] : Arg::make_none());
  }
  if (spelling == "torch.device" || spelling == "device") {
    std::optional<Arg> type, index;
    if (nargs >= 1) {
      PF_ASSIGN(type, literal_value(arg_at(0), options_.file));
    }
    if (nargs >= 2) {
      PF_ASSIGN(index, literal_value(arg_at(1), options_.file));
    }
    for (const auto& kw : e.keywords) {
      PF_ASSIGN(Arg v, literal_value(kw.value, options_.file));
      if (kw.name == "type")
        type = v;
      else if (kw.name == "index")
        index = v;
      else
        return error(kw.loc, "device() has no argument '" + kw.name + "'");
    }
    if (nargs > 2 || !type || type->kind != Arg::Kind::string ||
        (index && !index->is_none() && index->kind != Arg::Kind::integer)) {
      return error(e.loc,
                   "expected device('cuda'), device('cuda:0') or device(type='cuda', index=0)");
    }
    std::string text = type->s;
    if (index && index->kind == Arg::Kind::integer) text += ":" + std::to_string(index->i);
    return Arg::make_device(text);
  }
  if (spelling == "float") {
    if (auto v = float_call(e)) return *v;
    return error(e.loc, "float() is supported only as float('inf'), float('-inf') or float('nan')");
  }
  if (spelling == "torch.Size") {
    if (nargs != 1 || !e.keywords.empty())
      return error(e.loc, "torch.Size() takes one list of sizes");
    PF_ASSIGN(Arg sizes, eval(arg_at(0), ""));
    if (!sizes.is_sequence()) return error(e.loc, "torch.Size() takes one list of sizes");
    return Arg::make_tuple(sizes.items);
  }
  if (spelling == "math.sqrt" || spelling == "math.exp" || spelling == "math.log") {
    if (nargs != 1 || !e.keywords.empty()) return error(e.loc, spelling + "() takes one number");
    PF_ASSIGN(Arg x, literal_value(arg_at(0), options_.file));
    if (!x.is_number()) return error(e.loc, spelling + "() takes one number literal");
    double v = x.kind == Arg::Kind::real ? x.f : static_cast<double>(x.i);
    double r = spelling == "math.sqrt"  ? std::sqrt(v)
               : spelling == "math.exp" ? std::exp(v)
                                        : std::log(v);
    return Arg::make_real(r);
  }
  handled = false;
  return Arg::make_none();
}

Result<Arg> GraphBuilder::emit(const std::string& spelling, const OpInfo* op,
                               std::vector<Arg> positional,
                               std::vector<std::pair<std::string, Arg>> keywords, SourceLoc loc,
                               const std::string& hint, ValueId inplace_target) {
  std::string name = hint;
  if (name.empty() && inplace_target != kNoValue) {
    for (const auto& [n, a] : scope_) {
      if (a.is_value() && a.value == inplace_target) name = g_.values[inplace_target].name;
    }
  }
  if (name.empty()) name = fresh_name();
  if (op == nullptr) {  // collecting unknown ops: a stand-in value lets the build go on
    return Arg::make_value(g_.add_value(name, false, -1));
  }
  std::string alias = spelling;
  if (spelling != "tuple_get") find_op(registry_, spelling, &alias);
  const OpInfo& chosen = registry_.resolve(*op, alias, positional, keywords);
  auto args = registry_.normalize(chosen, std::move(positional), std::move(keywords));
  if (!args.ok()) return error(loc, "in call to " + spelling + ": " + args.error().message);
  Node node;
  node.op = chosen.name;
  node.args = std::move(args).value();
  node.loc = loc;
  int index = static_cast<int>(g_.nodes.size());
  node.output = g_.add_value(name, chosen.returns_list, index);
  g_.nodes.push_back(std::move(node));
  ValueId out = g_.nodes.back().output;
  if (inplace_target != kNoValue) mutate(inplace_target, out, loc);
  return Arg::make_value(out);
}

}  // namespace pf::dialect
