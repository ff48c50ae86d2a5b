#include "evaluator/scoring/failure_class.h"

#include <array>

namespace pf {
namespace {

constexpr std::array<std::pair<FailureClass, const char*>, 11> kNames = {{
    {FailureClass::none, "none"},
    {FailureClass::compile_fail, "compile_fail"},
    {FailureClass::pass_miss, "pass_miss"},
    {FailureClass::runtime_fail, "runtime_fail"},
    {FailureClass::accuracy, "accuracy"},
    {FailureClass::shape_mismatch, "shape_mismatch"},
    {FailureClass::dtype_mismatch, "dtype_mismatch"},
    {FailureClass::integrity, "integrity"},
    {FailureClass::timeout, "timeout"},
    {FailureClass::resource_limit, "resource_limit"},
    {FailureClass::unstable, "unstable"},
}};

}  // namespace

const char* failure_class_name(FailureClass c) {
  for (const auto& [cls, name] : kNames) {
    if (cls == c) return name;
  }
  return "none";
}

std::optional<FailureClass> parse_failure_class(std::string_view name) {
  for (const auto& [cls, n] : kNames) {
    if (name == n) return cls;
  }
  return std::nullopt;
}

}  // namespace pf
