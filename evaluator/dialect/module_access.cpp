#include "evaluator/dialect/module_access.h"

#include <string>
#include <vector>

#include "common/strings.h"

namespace pf::dialect {
namespace {

std::string defined_list(const Module& m) {
  std::vector<std::string> names;
  for (const auto& f : m.functions) names.push_back(f.name);
  for (const auto& c : m.classes) {
    for (const auto& f : c.methods) names.push_back(c.name + "." + f.name);
  }
  return names.empty() ? "no functions are defined" : "defined: " + join(names, ", ");
}

std::string file_of(const Module& m) {
  return m.file.empty() ? "<input>" : m.file;
}

}  // namespace

const FunctionDef* find_function(const Module& m, std::string_view name) {
  for (const auto& f : m.functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const ClassDef* find_class(const Module& m, std::string_view name) {
  for (const auto& c : m.classes) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const FunctionDef* find_method(const Module& m, std::string_view class_name,
                               std::string_view name) {
  const ClassDef* c = find_class(m, class_name);
  if (c == nullptr) return nullptr;
  for (const auto& f : c->methods) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

Result<const FunctionDef*> find_forward(const Module& m) {
  if (const FunctionDef* f = find_method(m, "GraphModule", "forward")) return f;
  std::vector<const FunctionDef*> found;
  for (const auto& c : m.classes) {
    for (const auto& f : c.methods) {
      if (f.name == "forward") found.push_back(&f);
    }
  }
  if (found.size() == 1) return found[0];
  if (found.size() > 1) {
    return make_error(
        ErrorCode::invalid_argument,
        file_of(m) + ": several classes define 'forward' and none is named GraphModule");
  }
  if (const FunctionDef* f = find_function(m, "forward")) return f;
  return make_error(ErrorCode::not_found,
                    file_of(m) + ": no 'forward' function (" + defined_list(m) + ")");
}

Result<const FunctionDef*> require_function(const Module& m, std::string_view name) {
  if (const FunctionDef* f = find_function(m, name)) return f;
  return make_error(ErrorCode::not_found, file_of(m) + ": no top-level function '" +
                                              std::string(name) + "' (" + defined_list(m) + ")");
}

}  // namespace pf::dialect
