#include "evaluator/ops/op_registry.h"

#include "common/check.h"
#include "common/strings.h"
#include "evaluator/ops/op_families.h"

namespace pf {

const OpRegistry& OpRegistry::builtin() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    register_all_builtin_ops(r);
    return r;
  }();
  return registry;
}

void OpRegistry::add(OpInfo info) {
  PF_CHECK_MSG(!by_name_.count(info.name), info.name.c_str());
  size_t index = ops_.size();
  by_name_[info.name] = index;
  for (const auto& alias : info.aliases) {
    PF_CHECK_MSG(!by_alias_.count(alias), alias.c_str());
    by_alias_[alias] = index;
  }
  std::vector<std::string> names;
  for (const auto& p : info.params) names.push_back(p.name);
  param_names_[info.name] = std::move(names);
  ops_.push_back(std::move(info));
}

const OpInfo* OpRegistry::find(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &ops_[it->second];
}

const OpInfo* OpRegistry::find_alias(std::string_view spelling) const {
  auto it = by_alias_.find(spelling);
  return it == by_alias_.end() ? nullptr : &ops_[it->second];
}

const OpInfo& OpRegistry::resolve(const OpInfo& op, std::string_view spelling,
                                  std::vector<Arg>& positional,
                                  std::vector<std::pair<std::string, Arg>>& keywords) const {
  const OpInfo* current = &op;
  // Bounded: an overload names another op, whose own hook may refine further.
  for (int depth = 0; depth < 4 && current->overload; ++depth) {
    std::string target = current->overload(spelling, positional, keywords);
    if (target.empty() || target == current->name) break;
    const OpInfo* next = find(target);
    PF_CHECK_MSG(next != nullptr, target.c_str());
    current = next;
  }
  return *current;
}

std::vector<std::string> OpRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, index] : by_name_) out.push_back(name);
  return out;
}

std::vector<std::string> OpRegistry::all_aliases() const {
  std::vector<std::string> out;
  for (const auto& [alias, index] : by_alias_) out.push_back(alias);
  return out;
}

const std::vector<std::string>* OpRegistry::param_names(std::string_view name) const {
  auto it = param_names_.find(name);
  return it == param_names_.end() ? nullptr : &it->second;
}

Result<std::vector<Arg>> OpRegistry::normalize(
    const OpInfo& op, std::vector<Arg> positional,
    std::vector<std::pair<std::string, Arg>> keywords) const {
  const auto& params = op.params;
  std::vector<std::optional<Arg>> bound(params.size());
  size_t p = 0;
  for (size_t k = 0; k < positional.size(); ++k) {
    while (p < params.size() && params[p].keyword_only) ++p;
    if (p >= params.size()) {
      return make_error(ErrorCode::invalid_argument,
                        op.name + ": takes at most " + std::to_string(params.size()) +
                            " arguments, got " + std::to_string(positional.size()));
    }
    if (params[p].varargs) {
      size_t rest = positional.size() - k;
      bool whole = rest == 1 && (positional[k].is_sequence() || positional[k].is_value());
      if (whole) {
        bound[p] = std::move(positional[k]);
      } else {
        std::vector<Arg> items(std::make_move_iterator(positional.begin() + k),
                               std::make_move_iterator(positional.end()));
        bound[p] = Arg::make_list(std::move(items));
      }
      ++p;
      break;
    }
    bound[p++] = std::move(positional[k]);
  }
  for (auto& [key, value] : keywords) {
    size_t idx = params.size();
    for (size_t q = 0; q < params.size(); ++q) {
      if (params[q].name == key) idx = q;
    }
    // PyTorch's argument parser takes NumPy's names for these everywhere
    // (`torch.cat(xs, axis=1)`, `x.sum(axis=0, keepdims=True)`).
    std::string_view numpy_name = key == "axis" ? "dim" : key == "keepdims" ? "keepdim" : "";
    for (size_t q = 0; idx == params.size() && !numpy_name.empty() && q < params.size(); ++q) {
      if (params[q].name == numpy_name) idx = q;
    }
    if (idx == params.size()) {
      std::vector<std::string> names;
      for (const auto& prm : params) names.push_back(prm.name);
      std::string hint = closest_match(key, names);
      return make_error(ErrorCode::invalid_argument,
                        op.name + ": unexpected keyword argument '" + key + "'" +
                            (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }
    if (bound[idx]) {
      return make_error(ErrorCode::invalid_argument,
                        op.name + ": got multiple values for argument '" + key + "'");
    }
    if (params[idx].varargs && value.kind == Arg::Kind::integer) {
      value = Arg::make_list({value});
    }
    bound[idx] = std::move(value);
  }
  std::vector<Arg> out;
  out.reserve(params.size());
  for (size_t q = 0; q < params.size(); ++q) {
    if (params[q].kind == ParamKind::ignored) {
      out.push_back(Arg::make_none());
      continue;
    }
    if (!bound[q]) {
      if (!params[q].default_value) {
        return make_error(ErrorCode::invalid_argument,
                          op.name + ": missing required argument '" + params[q].name + "'");
      }
      bound[q] = *params[q].default_value;
    }
    // Tuple vs list spelling carries no meaning: both become lists. A lone
    // int stays an int (ops read it through ArgReader::ints): PyTorch accepts
    // `adaptive_avg_pool2d(x, 1)` but rejects `(x, [1])`, and the printer must
    // give back code PyTorch accepts.
    bool list_param = params[q].kind == ParamKind::int_list ||
                      params[q].kind == ParamKind::optional_int_list ||
                      params[q].kind == ParamKind::tensor_list;
    if (list_param && bound[q]->kind == Arg::Kind::tuple) {
      bound[q]->kind = Arg::Kind::list;
    }
    out.push_back(std::move(*bound[q]));
  }
  return out;
}

}  // namespace pf
