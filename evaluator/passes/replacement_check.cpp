#include "evaluator/passes/replacement_check.h"

#include <algorithm>
#include <set>

#include "evaluator/core/dtype.h"
#include "evaluator/dialect/syntax_error.h"
#include "evaluator/passes/replacement_language.h"

namespace pf::passes {
namespace {

using dialect::Expr;
using dialect::Operator;
using dialect::Stmt;

constexpr const char* kWriteAKernel = "write a kernel and launch it";

void collect_targets(const Expr& t, std::set<std::string>& out) {
  if (t.kind == Expr::Kind::name) out.insert(t.text);
  if (t.kind == Expr::Kind::tuple || t.kind == Expr::Kind::list) {
    for (const auto& c : t.children) collect_targets(c, out);
  }
}

void collect_assigned(const std::vector<Stmt>& body, std::set<std::string>& out) {
  for (const auto& s : body) {
    if (s.kind == Stmt::Kind::assign || s.kind == Stmt::Kind::aug_assign) {
      for (const auto& t : s.targets) collect_targets(t, out);
    }
    for (const auto& b : s.branches) collect_assigned(b.body, out);
    collect_assigned(s.orelse, out);
  }
}

bool has_return(const std::vector<Stmt>& body) {
  for (const auto& s : body) {
    if (s.kind == Stmt::Kind::return_stmt) return true;
    for (const auto& b : s.branches) {
      if (has_return(b.body)) return true;
    }
    if (has_return(s.orelse)) return true;
  }
  return false;
}

class Checker {
 public:
  Checker(const ReplacementCheckContext& ctx, std::vector<std::string>& errors,
          std::vector<LaunchSite>& launches)
      : ctx_(ctx), errors_(errors), launches_(launches) {}

  void run(const dialect::FunctionDef& fn) {
    names_.insert(ctx_.params.begin(), ctx_.params.end());
    collect_assigned(fn.body, names_);
    body(fn.body);
    if (!has_return(fn.body)) {
      err(fn.loc,
          "the replacement has no return statement; return the values the pattern "
          "returns (" +
              std::to_string(ctx_.output_count) + ")");
    }
  }

 private:
  void err(SourceLoc loc, const std::string& message) {
    errors_.push_back(dialect::format_loc(ctx_.file, loc) + ": " + message);
  }

  bool is_tensor_param(const Expr& e) const {
    if (e.kind != Expr::Kind::name) return false;
    for (size_t k = 0; k < ctx_.params.size(); ++k) {
      if (ctx_.params[k] == e.text) return ctx_.uses[k] == ParamUse::tensor;
    }
    return false;
  }

  bool is_local(const std::string& name) const { return names_.count(name) != 0; }

  void body(const std::vector<Stmt>& stmts) {
    for (const auto& s : stmts) stmt(s);
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case Stmt::Kind::assign:
        for (const auto& t : s.targets) target(t);
        expr(s.value);
        return;
      case Stmt::Kind::aug_assign:
        if (s.targets[0].kind != Expr::Kind::name) {
          err(s.loc, "augmented assignment needs a plain name as its target");
        }
        binary_op(s.op, s.loc, s.targets[0], s.value);
        expr(s.value);
        return;
      case Stmt::Kind::expression:
        expression_statement(s);
        return;
      case Stmt::Kind::return_stmt:
        return_statement(s);
        return;
      case Stmt::Kind::if_stmt:
        for (const auto& b : s.branches) {
          expr(b.condition);
          body(b.body);
        }
        body(s.orelse);
        return;
      case Stmt::Kind::pass:
        return;
      case Stmt::Kind::unsupported:
        unsupported_statement(s);
        return;
    }
  }

  void unsupported_statement(const Stmt& s) {
    if (s.keyword == "for" || s.keyword == "while") {
      err(s.loc, "'" + s.keyword +
                     "' loops are not allowed in replacement bodies: the kernel "
                     "does the looping (launch a grid that covers the data)");
    } else if (s.keyword == "import" || s.keyword == "from") {
      err(s.loc,
          "imports are not allowed in replacement bodies: nothing outside the "
          "replacement language can be called");
    } else if (s.keyword == "def" || s.keyword == "class") {
      err(s.loc, "nested '" + s.keyword + "' is not allowed in replacement bodies; allowed: " +
                     lang::allowed_statements_text());
    } else {
      err(s.loc, "'" + s.keyword +
                     "' statements are not allowed in replacement bodies; "
                     "allowed: " +
                     lang::allowed_statements_text());
    }
  }

  void target(const Expr& t) {
    switch (t.kind) {
      case Expr::Kind::name:
        return;
      case Expr::Kind::tuple:
      case Expr::Kind::list:
        for (const auto& c : t.children) target(c);
        return;
      case Expr::Kind::subscript:
      case Expr::Kind::attribute:
        err(t.loc, "cannot assign to " + dialect::describe_expr(t) +
                       ": replacement bodies cannot write tensors or attributes; " + kWriteAKernel);
        return;
      default:
        err(t.loc, "cannot assign to " + dialect::describe_expr(t));
    }
  }

  void expression_statement(const Stmt& s) {
    const Expr& v = s.value;
    bool placeholder = v.kind == Expr::Kind::string || v.kind == Expr::Kind::ellipsis ||
                       v.kind == Expr::Kind::none || v.is_literal_number();
    if (placeholder) return;  // docstrings and `...`
    size_t before = errors_.size();
    expr(v);
    bool is_launch = v.kind == Expr::Kind::call && v.children[0].kind == Expr::Kind::name &&
                     v.children[0].text == "launch";
    if (!is_launch && errors_.size() == before) {
      err(v.loc, dialect::describe_expr(v) +
                     " has no effect here; the only call that stands alone is launch(...)");
    }
  }

  void return_statement(const Stmt& s) {
    if (!s.has_value) {
      err(s.loc, "return the pattern's outputs: 'return out' or 'return (a, b)'");
      return;
    }
    if (s.value.kind == Expr::Kind::tuple && s.value.children.size() != ctx_.output_count) {
      err(s.loc, "returns " + std::to_string(s.value.children.size()) +
                     " values; the pattern returns " + std::to_string(ctx_.output_count));
    }
    expr(s.value);
  }

  void binary_op(Operator op, SourceLoc loc, const Expr& left, const Expr& right) {
    switch (op) {
      case Operator::add:
      case Operator::sub:
      case Operator::mul:
      case Operator::floordiv:
      case Operator::mod:
        break;
      case Operator::truediv:
        err(loc,
            "'/' (true division) is not allowed: use // or cdiv(a, b); replacement bodies "
            "do integer arithmetic, float math belongs in the kernel");
        return;
      case Operator::matmul:
        err(loc, "replacement bodies cannot compute ('@' is a matrix multiply); " +
                     std::string(kWriteAKernel));
        return;
      default:
        err(loc, std::string("operator '") + dialect::operator_symbol(op) +
                     "' is not allowed: replacement bodies do integer arithmetic with "
                     "+ - * // % cdiv min max");
        return;
    }
    for (const Expr* side : {&left, &right}) {
      if (is_tensor_param(*side)) {
        err(loc, "replacement bodies cannot compute on tensors ('" + side->text + " " +
                     dialect::operator_symbol(op) + " ...'); " + kWriteAKernel);
        return;
      }
    }
  }

  void expr(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::name:
        name(e);
        return;
      case Expr::Kind::attribute:
        attribute(e);
        return;
      case Expr::Kind::call:
        call(e);
        return;
      case Expr::Kind::subscript:
        subscript(e);
        return;
      case Expr::Kind::slice:
        for (const auto& c : e.children) expr(c);
        return;
      case Expr::Kind::integer:
      case Expr::Kind::real:
      case Expr::Kind::string:
      case Expr::Kind::boolean:
      case Expr::Kind::none:
        return;
      case Expr::Kind::ellipsis:
        err(e.loc, "'...' is not a value in replacement bodies");
        return;
      case Expr::Kind::tuple:
      case Expr::Kind::list:
      case Expr::Kind::bool_op:
      case Expr::Kind::conditional:
        for (const auto& c : e.children) expr(c);
        return;
      case Expr::Kind::unary:
        if (e.op == Operator::invert) {
          err(e.loc,
              "operator '~' is not allowed: replacement bodies do integer arithmetic "
              "with + - * // % cdiv min max");
        } else if (e.op == Operator::neg && is_tensor_param(e.children[0])) {
          err(e.loc, "replacement bodies cannot compute on tensors ('-" + e.children[0].text +
                         "'); " + kWriteAKernel);
        }
        expr(e.children[0]);
        return;
      case Expr::Kind::binary:
        binary_op(e.op, e.loc, e.children[0], e.children[1]);
        expr(e.children[0]);
        expr(e.children[1]);
        return;
      case Expr::Kind::compare:
        compare(e);
        return;
      case Expr::Kind::unsupported:
        err(e.loc, "'" + e.text + "' is not allowed in replacement bodies");
        return;
    }
  }

  void name(const Expr& e) {
    if (e.text == "torch") {
      err(e.loc,
          "'torch' can only be used as torch.empty/empty_like/zeros/zeros_like(...) or "
          "torch.<dtype>");
    } else if (lang::is_builtin(e.text)) {
      err(e.loc, "'" + e.text + "' can only be called: " + e.text + "(...)");
    } else if (!is_local(e.text)) {
      err(e.loc, "name '" + e.text + "' is not defined (parameters: " +
                     (ctx_.params.empty() ? std::string("none") : join_params()) + ")");
    }
  }

  std::string join_params() const {
    std::string out;
    for (size_t k = 0; k < ctx_.params.size(); ++k) out += (k ? ", " : "") + ctx_.params[k];
    return out;
  }

  void attribute(const Expr& e) {
    const Expr& obj = e.children[0];
    if (obj.kind == Expr::Kind::name && obj.text == "torch") {
      if (!parse_dtype("torch." + e.text)) {
        err(e.loc, "'torch." + e.text +
                       "' is not available in replacement bodies; from torch "
                       "only the allocations torch.empty/empty_like/zeros/zeros_like and the "
                       "dtypes (torch.float16, ...) are");
      }
      return;
    }
    if (!lang::is_metadata_attribute(e.text)) {
      err(e.loc, "attribute '." + e.text +
                     "' is not allowed; replacement bodies read only "
                     "metadata: " +
                     lang::allowed_metadata_text());
      return;
    }
    expr(obj);
  }

  void subscript(const Expr& e) {
    const Expr& base = e.children[0];
    if (is_tensor_param(base)) {
      err(e.loc, "subscripting a tensor (" + base.text +
                     "[...]) is not allowed: replacement "
                     "bodies cannot read or slice tensors; pass " +
                     base.text + " to a kernel");
      return;
    }
    expr(base);
    const Expr& index = e.children[1];
    if (index.kind == Expr::Kind::tuple && !index.parenthesized) {
      err(index.loc, "only one index or slice is allowed (t[i] or t[a:b])");
      return;
    }
    expr(index);
  }

  void compare(const Expr& e) {
    for (size_t k = 0; k < e.compare_ops.size(); ++k) {
      Operator op = e.compare_ops[k];
      if (op == Operator::in || op == Operator::not_in) {
        err(e.loc, std::string("'") + dialect::operator_symbol(op) +
                       "' is not allowed; compare with < <= > >= == !=");
      } else if (op == Operator::is || op == Operator::is_not) {
        if (e.children[k].kind != Expr::Kind::none && e.children[k + 1].kind != Expr::Kind::none) {
          err(e.loc, std::string("'") + dialect::operator_symbol(op) +
                         "' compares with None only; use == or !=");
        }
      }
    }
    for (const auto& c : e.children) expr(c);
  }

  void args(const Expr& e) {
    for (size_t k = 1; k < e.children.size(); ++k) expr(e.children[k]);
    for (const auto& kw : e.keywords) expr(kw.value);
  }

  bool no_keywords(const Expr& e, const std::string& what) {
    if (e.keywords.empty()) return true;
    err(e.keywords[0].loc, what + " takes no keyword arguments");
    return false;
  }

  void call(const Expr& e) {
    const Expr& callee = e.children[0];
    size_t positional = e.children.size() - 1;
    if (callee.kind == Expr::Kind::name) {
      const std::string& f = callee.text;
      if (f == "launch") return launch(e);
      if (f == "cdiv" && positional != 2) {
        err(e.loc, "cdiv(a, b) takes two integers");
      } else if ((f == "min" || f == "max") && positional < 1) {
        err(e.loc, f + "(...) needs arguments");
      } else if (!lang::is_builtin(f)) {
        not_callable(e, f);
        return;
      }
      if (no_keywords(e, f + "()")) args(e);
      return;
    }
    if (callee.kind != Expr::Kind::attribute) {
      err(e.loc, "only named functions can be called; callable: " + lang::allowed_calls_text());
      return;
    }
    auto dotted = dialect::dotted_path(callee);
    std::string root = dotted ? dotted->substr(0, dotted->find('.')) : "";
    bool module_call = dotted && !is_local(root);
    if (module_call) {
      std::string spelling = dialect::canonical_spelling(*dotted, ctx_.aliases);
      if (lang::is_allocation(spelling)) return allocation(e, spelling);
      not_callable(e, spelling);
      return;
    }
    const std::string& method = callee.text;
    if (lang::is_metadata_method(method)) {
      metadata_method(e, method);
      return;
    }
    if (dialect::find_op(*ctx_.registry, "Tensor." + method) != nullptr) {
      err(e.loc, "replacement bodies cannot compute: '." + method + "()' is a tensor op; " +
                     kWriteAKernel);
      return;
    }
    err(e.loc, "'." + method + "()' cannot be called in replacement bodies; callable: " +
                   lang::allowed_calls_text());
  }

  void not_callable(const Expr& e, const std::string& spelling) {
    if (dialect::find_op(*ctx_.registry, spelling) != nullptr) {
      err(e.loc,
          "replacement bodies cannot compute: '" + spelling + "' is a tensor op; " + kWriteAKernel);
    } else {
      err(e.loc, "'" + spelling + "' cannot be called in replacement bodies; callable: " +
                     lang::allowed_calls_text());
    }
  }

  void metadata_method(const Expr& e, const std::string& method) {
    size_t positional = e.children.size() - 1;
    bool takes_dim = method == "size" || method == "stride";
    if (positional > (takes_dim ? 1u : 0u)) {
      err(e.loc, takes_dim ? "." + method + "() takes at most one dim: ." + method + "(i)"
                           : "." + method + "() takes no arguments");
    }
    if (no_keywords(e, "." + method + "()")) args(e);
    expr(e.children[0].children[0]);
  }

  void allocation(const Expr& e, const std::string& spelling) {
    size_t positional = e.children.size() - 1;
    bool like = spelling.size() > 5 && spelling.substr(spelling.size() - 5) == "_like";
    if (like && positional != 1) {
      err(e.loc, spelling + "(x, dtype=...) takes one tensor");
    } else if (!like && positional == 0) {
      err(e.loc, spelling + "(shape, dtype=...) needs a shape: ints or one tuple");
    }
    for (const auto& kw : e.keywords) {
      if (kw.name != "dtype" && kw.name != "device") {
        err(kw.loc, spelling + "() accepts dtype= and device= only, not " + kw.name + "=");
      }
    }
    args(e);
  }

  void launch(const Expr& e) {
    size_t positional = e.children.size() - 1;
    if (positional != 1) {
      err(e.loc,
          "launch() takes the kernel name positionally, then grid=, block=, smem= and "
          "args= as keywords");
    }
    bool grid = false, block = false;
    const Expr* launch_args = nullptr;
    for (const auto& kw : e.keywords) {
      if (kw.name == "grid") {
        grid = true;
      } else if (kw.name == "block") {
        block = true;
      } else if (kw.name == "args") {
        launch_args = &kw.value;
      } else if (kw.name != "smem") {
        err(kw.loc,
            "launch() takes grid=, block=, smem= and args=; unknown keyword '" + kw.name + "'");
      }
    }
    if (!grid || !block) err(e.loc, "launch() needs grid= and block=");
    if (positional >= 1 && e.children[1].kind == Expr::Kind::string) {
      LaunchSite site;
      site.kernel = e.children[1].text;
      site.loc = e.loc;
      if (launch_args == nullptr) {
        site.arg_count = 0;
      } else if (launch_args->kind == Expr::Kind::tuple || launch_args->kind == Expr::Kind::list) {
        site.arg_count = static_cast<int>(launch_args->children.size());
      }
      launches_.push_back(site);
    }
    args(e);
  }

  const ReplacementCheckContext& ctx_;
  std::vector<std::string>& errors_;
  std::vector<LaunchSite>& launches_;
  std::set<std::string> names_;  // parameters and every assigned name
};

}  // namespace

void check_replacement(const dialect::FunctionDef& fn, const ReplacementCheckContext& ctx,
                       std::vector<std::string>& errors, std::vector<LaunchSite>& launches) {
  Checker(ctx, errors, launches).run(fn);
}

}  // namespace pf::passes
