#include "evaluator/dialect/spelling.h"

#include "common/strings.h"

namespace pf::dialect {

ModuleAliases default_module_aliases() {
  return {{"F", "torch.nn.functional"}, {"nn", "torch.nn"}};
}

ModuleAliases module_aliases(const Module& module) {
  ModuleAliases out = default_module_aliases();
  for (const auto& imp : module.imports) {
    if (imp.name.empty()) {
      // `import a.b` binds `a`; `import a.b as c` binds `c` to a.b.
      if (!imp.alias.empty()) {
        out[imp.alias] = imp.module;
      } else {
        std::string root = imp.module.substr(0, imp.module.find('.'));
        out[root] = root;
      }
    } else if (imp.name != "*") {
      out[imp.alias.empty() ? imp.name : imp.alias] = imp.module + "." + imp.name;
    }
  }
  return out;
}

std::optional<std::string> dotted_path(const Expr& e) {
  if (e.kind == Expr::Kind::name) return e.text;
  if (e.kind != Expr::Kind::attribute) return std::nullopt;
  auto base = dotted_path(e.children[0]);
  if (!base) return std::nullopt;
  return *base + "." + e.text;
}

std::string canonical_spelling(std::string_view path, const ModuleAliases& aliases) {
  std::string_view root = path.substr(0, path.find('.'));
  std::string out(path);
  auto it = aliases.find(root);
  if (it != aliases.end() && it->second != root) {
    out = it->second + std::string(path.substr(root.size()));
  }
  static constexpr std::string_view kTensorPrefix = "torch.Tensor.";
  if (starts_with(out, kTensorPrefix)) out = "Tensor." + out.substr(kTensorPrefix.size());
  return out;
}

bool is_inplace_spelling(std::string_view spelling) {
  // The operator module names `and_`, `or_`, `not_` this way; its in-place
  // forms are `iadd`, `iand`, ...
  if (starts_with(spelling, "operator.")) return false;
  std::string_view last = spelling.substr(spelling.rfind('.') + 1);
  return last.size() >= 2 && last.back() == '_' && last[last.size() - 2] != '_' &&
         last.front() != '_';
}

namespace {

// `x.__eq__(y)` is `x == y`: a dunder method is looked up as the operator it
// implements ("operator.eq", "operator.and_"), else as the plain method
// ("__abs__" -> "Tensor.abs"). In-place (`__iadd__`) and reflected (`__radd__`)
// forms are left to inplace_operator / reflected_operator: neither is the same
// call with the same operands.
const OpInfo* find_dunder(const OpRegistry& registry, std::string_view spelling,
                          std::string& alias) {
  static constexpr std::string_view kPrefix = "Tensor.__";
  if (!starts_with(spelling, kPrefix) || !ends_with(spelling, "__")) return nullptr;
  std::string_view name = spelling.substr(kPrefix.size());
  if (name.size() <= 2) return nullptr;
  name = name.substr(0, name.size() - 2);
  auto is_operator = [&](std::string_view n) {
    return registry.find_alias("operator." + std::string(n)) != nullptr ||
           registry.find_alias("operator." + std::string(n) + "_") != nullptr;
  };
  if ((name.front() == 'r' || name.front() == 'i') && is_operator(name.substr(1))) return nullptr;
  for (std::string candidate :
       {"operator." + std::string(name), "operator." + std::string(name) + "_",
        "Tensor." + std::string(name)}) {
    if (const OpInfo* op = registry.find_alias(candidate)) {
      alias = std::move(candidate);
      return op;
    }
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> reflected_operator(const OpRegistry& registry,
                                              std::string_view spelling) {
  static constexpr std::string_view kPrefix = "Tensor.__r";
  if (!starts_with(spelling, kPrefix) || !ends_with(spelling, "__")) return std::nullopt;
  std::string name(spelling.substr(kPrefix.size(), spelling.size() - kPrefix.size() - 2));
  for (std::string candidate : {"operator." + name, "operator." + name + "_"}) {
    if (!name.empty() && registry.find_alias(candidate) != nullptr) return candidate;
  }
  return std::nullopt;
}

std::optional<std::string> inplace_operator(const OpRegistry& registry, std::string_view spelling) {
  static constexpr std::string_view kPrefix = "Tensor.__i";
  if (!starts_with(spelling, kPrefix) || !ends_with(spelling, "__")) return std::nullopt;
  std::string name(spelling.substr(kPrefix.size(), spelling.size() - kPrefix.size() - 2));
  // Only operators registered with their augmented form: PyTorch has no
  // in-place matmul (`x @= y` raises), so `__imatmul__` stays unknown.
  std::string candidate = "operator.i" + name;
  if (name.empty() || registry.find_alias(candidate) == nullptr) return std::nullopt;
  return candidate;
}

const OpInfo* find_op(const OpRegistry& registry, std::string_view spelling,
                      std::string* found_alias) {
  std::string alias(spelling);
  const OpInfo* op = registry.find_alias(alias);
  if (op == nullptr && is_inplace_spelling(spelling)) {
    alias = spelling.substr(0, spelling.size() - 1);
    op = registry.find_alias(alias);
  }
  if (op == nullptr) op = find_dunder(registry, spelling, alias);
  if (op != nullptr && found_alias != nullptr) *found_alias = alias;
  return op;
}

std::string unknown_op_message(const OpRegistry& registry, std::string_view spelling) {
  std::string msg = "unknown op '" + std::string(spelling) + "'";
  std::string hint = closest_match(spelling, registry.all_aliases());
  if (!hint.empty()) msg += " (did you mean '" + hint + "'?)";
  return msg;
}

}  // namespace pf::dialect
