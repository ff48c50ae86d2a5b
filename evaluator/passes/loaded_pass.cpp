#include "evaluator/passes/loaded_pass.h"

#include <algorithm>
#include <set>

#include "common/strings.h"
#include "evaluator/dialect/graph_builder.h"
#include "evaluator/dialect/module_access.h"
#include "evaluator/dialect/parser.h"
#include "evaluator/dialect/syntax_error.h"
#include "evaluator/passes/replacement_check.h"

namespace pf::passes {
namespace {

using dialect::format_loc;

bool is_tensor_kind(ParamKind k) {
  return k == ParamKind::tensor || k == ParamKind::optional_tensor || k == ParamKind::tensor_list;
}

void note_use(const Arg& a, ParamUse use, const Graph& g, std::vector<int>& seen) {
  if (a.is_value()) {
    auto it = std::find(g.inputs.begin(), g.inputs.end(), a.value);
    if (it != g.inputs.end()) seen[it - g.inputs.begin()] |= 1 << static_cast<int>(use);
  }
  // Items of a tensor list are tensors; items of a literal list are literals.
  for (const auto& item : a.items) note_use(item, use, g, seen);
}

std::vector<ParamUse> param_uses(const Graph& g, const OpRegistry& registry) {
  std::vector<int> seen(g.inputs.size(), 0);
  for (const Node& n : g.nodes) {
    const OpInfo* op = registry.find(n.op);
    for (size_t i = 0; i < n.args.size(); ++i) {
      ParamUse use = ParamUse::either;
      if (op != nullptr && i < op->params.size()) {
        ParamKind k = op->params[i].kind;
        use = is_tensor_kind(k)                                             ? ParamUse::tensor
              : k == ParamKind::tensor_or_scalar || k == ParamKind::indices ? ParamUse::either
                                                                            : ParamUse::literal;
      }
      if (n.op == "tuple_get" && i == 0) use = ParamUse::tensor;
      note_use(n.args[i], use, g, seen);
    }
  }
  std::vector<ParamUse> out;
  for (int bits : seen) {
    out.push_back(bits == (1 << static_cast<int>(ParamUse::tensor))    ? ParamUse::tensor
                  : bits == (1 << static_cast<int>(ParamUse::literal)) ? ParamUse::literal
                                                                       : ParamUse::either);
  }
  return out;
}

// The pattern's structural rules: it computes something, returns tensors it
// computes, uses every parameter and has no dead nodes (a dead node could
// never be anchored, so it would silently not be part of matches).
void check_pattern(const Graph& p, const std::string& file, std::vector<std::string>& errors,
                   SourceLoc def_loc) {
  auto at = [&](SourceLoc loc) { return format_loc(file, loc) + ": "; };
  if (p.nodes.empty()) {
    errors.push_back(at(def_loc) +
                     "the pattern computes nothing; it must contain the ops to "
                     "replace");
    return;
  }
  std::set<ValueId> outs;
  for (ValueId v : p.outputs) {
    const Value& val = p.values[v];
    if (val.producer < 0) {
      errors.push_back(at(def_loc) + "the pattern returns its parameter '" + val.name +
                       "'; return values the pattern computes");
    } else if (val.is_list) {
      errors.push_back(at(p.nodes[val.producer].loc) + "the pattern returns the tensor list '" +
                       val.name + "'; return its items instead (a, b = ...; return (a, b))");
    }
    if (!outs.insert(v).second) {
      errors.push_back(at(def_loc) + "the pattern returns '" + val.name + "' twice");
    }
  }
  std::vector<bool> live(p.values.size(), false);
  for (ValueId v : p.outputs) live[v] = true;
  for (size_t k = p.nodes.size(); k-- > 0;) {
    const Node& n = p.nodes[k];
    if (!live[n.output]) {
      errors.push_back(at(n.loc) + "'" + p.values[n.output].name +
                       "' is computed but does not lead to the pattern's outputs; remove it or "
                       "return it");
      continue;
    }
    for (ValueId v : Graph::node_operands(n)) live[v] = true;
  }
  for (ValueId in : p.inputs) {
    if (!live[in]) {
      errors.push_back(at(def_loc) + "parameter '" + p.values[in].name +
                       "' is not used by the pattern; remove it");
    }
  }
}

std::vector<std::string> param_names(const dialect::FunctionDef& fn) {
  std::vector<std::string> out;
  for (size_t k = 0; k < fn.params.size(); ++k) {
    if (k == 0 && fn.params[k].name == "self") continue;
    out.push_back(fn.params[k].name);
  }
  return out;
}

void check_module_shape(const dialect::Module& m, std::vector<std::string>& errors) {
  for (const auto& f : m.functions) {
    if (f.name != "pattern" && f.name != "replacement") {
      errors.push_back(format_loc(m.file, f.loc) +
                       ": only 'pattern' and 'replacement' may be "
                       "defined; a replacement cannot call '" +
                       f.name + "' (inline it)");
    }
    if (!f.decorators.empty()) {
      errors.push_back(format_loc(m.file, f.decorators[0].loc) + ": decorators are not allowed");
    }
  }
  for (const auto& c : m.classes) {
    errors.push_back(format_loc(m.file, c.loc) + ": classes are not allowed in a pass file");
  }
  for (const auto& s : m.statements) {
    bool docstring =
        s.kind == dialect::Stmt::Kind::expression && s.value.kind == dialect::Expr::Kind::string;
    if (!docstring) {
      errors.push_back(format_loc(m.file, s.loc) +
                       ": top-level statements other than imports "
                       "are not allowed; put constants inside the "
                       "functions");
    }
  }
}

}  // namespace

std::string LoadedPass::call_op() const {
  return kCallOpPrefix + name;
}

bool is_call_op(const std::string& op) {
  return starts_with(op, kCallOpPrefix);
}

std::string call_op_pass_name(const std::string& op) {
  return op.substr(std::char_traits<char>::length(kCallOpPrefix));
}

Result<LoadedPass> load_pass(const std::string& name, const std::string& source,
                             const OpRegistry& registry) {
  LoadedPass pass;
  pass.name = name;
  pass.file = PassWorkspace::pass_path(name);
  pass.source = source;
  PF_ASSIGN(dialect::Module module, dialect::parse_module(source, pass.file));
  std::vector<std::string> errors;
  check_module_shape(module, errors);
  auto pattern_fn = dialect::require_function(module, "pattern");
  auto replacement_fn = dialect::require_function(module, "replacement");
  if (!pattern_fn.ok()) errors.push_back(pattern_fn.error().message);
  if (!replacement_fn.ok()) errors.push_back(replacement_fn.error().message);
  if (!pattern_fn.ok() || !replacement_fn.ok()) {
    return make_error(ErrorCode::invalid_argument, join(errors, "\n"));
  }
  std::vector<dialect::OpUse> unknown;
  auto pattern =
      dialect::build_graph(**pattern_fn, registry, dialect::build_options_for(module), &unknown);
  if (!pattern.ok()) {
    if (unknown.empty()) {
      errors.push_back(pattern.error().message);
    }
    for (const auto& u : unknown) {
      errors.push_back(format_loc(pass.file, u.loc) + ": " +
                       dialect::unknown_op_message(registry, u.spelling));
    }
    return make_error(ErrorCode::invalid_argument, join(errors, "\n"));
  }
  pass.pattern = std::move(*pattern);
  check_pattern(pass.pattern, pass.file, errors, (*pattern_fn)->loc);
  pass.param_uses = param_uses(pass.pattern, registry);

  pass.replacement = **replacement_fn;
  std::vector<std::string> pnames = param_names(**pattern_fn);
  std::vector<std::string> rnames = param_names(pass.replacement);
  if (pnames != rnames) {
    errors.push_back(format_loc(pass.file, pass.replacement.loc) +
                     ": the replacement's parameters (" + join(rnames, ", ") +
                     ") must be the pattern's (" + join(pnames, ", ") + "), in the same order");
  }
  for (const auto& p : pass.replacement.params) {
    if (p.default_value) {
      errors.push_back(format_loc(pass.file, p.loc) + ": parameter '" + p.name +
                       "' has a default value; replacement parameters cannot");
    }
  }
  ReplacementCheckContext ctx;
  ctx.file = pass.file;
  ctx.params = pnames;
  ctx.uses = pass.param_uses;
  ctx.output_count = pass.pattern.outputs.size();
  ctx.registry = &registry;
  ctx.aliases = dialect::module_aliases(module);
  pass.aliases = ctx.aliases;
  check_replacement(pass.replacement, ctx, errors, pass.launches);
  if (!errors.empty()) return make_error(ErrorCode::invalid_argument, join(errors, "\n"));
  return pass;
}

Result<std::vector<LoadedPass>> load_passes(const PassWorkspace& workspace,
                                            const OpRegistry& registry) {
  std::vector<LoadedPass> out;
  std::vector<std::string> errors;
  for (const auto& name : workspace.pass_names()) {
    auto pass = load_pass(name, workspace.pass_source(name), registry);
    if (!pass.ok()) {
      errors.push_back(pass.error().message);
      continue;
    }
    out.push_back(std::move(*pass));
  }
  if (!errors.empty()) return make_error(ErrorCode::invalid_argument, join(errors, "\n"));
  return out;
}

}  // namespace pf::passes
