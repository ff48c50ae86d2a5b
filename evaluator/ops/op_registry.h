// The one place ops are found. Built-in ops register themselves
// through the register_*_ops functions listed in op_registry.cpp.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "evaluator/ops/op_info.h"

namespace pf {

class OpRegistry {
 public:
  //! The registry of all built-in ops (built once, then read-only: thread-safe).
  static const OpRegistry& builtin();

  void add(OpInfo info);
  const OpInfo* find(std::string_view name) const;
  //! Looks up a spelling as written ("torch.nn.functional.relu", "Tensor.relu").
  //! Graph builders then call resolve(), which picks the overload.
  const OpInfo* find_alias(std::string_view spelling) const;
  //! Overload resolution for a call spelled `spelling` that find_alias mapped
  //! to `op`: returns the op that handles these arguments (usually `op`) and may
  //! rewrite them (x.to('cuda', torch.half) drops the device; torch.max(x, 1)
  //! is max_dim). Call it before normalize. Never fails: a bad call is
  //! reported by normalize or type inference.
  const OpInfo& resolve(const OpInfo& op, std::string_view spelling, std::vector<Arg>& positional,
                        std::vector<std::pair<std::string, Arg>>& keywords) const;
  std::vector<std::string> names() const;
  std::vector<std::string> all_aliases() const;
  //! Parameter names of an op, for error messages (stable storage).
  const std::vector<std::string>* param_names(std::string_view name) const;

  //! Binds positional and keyword arguments to the op's parameters, fills
  //! defaults and drops ignored parameters' values. Errors name the parameter.
  Result<std::vector<Arg>> normalize(const OpInfo& op, std::vector<Arg> positional,
                                     std::vector<std::pair<std::string, Arg>> keywords) const;

 private:
  std::vector<OpInfo> ops_;
  std::map<std::string, size_t, std::less<>> by_name_;
  std::map<std::string, size_t, std::less<>> by_alias_;
  std::map<std::string, std::vector<std::string>, std::less<>> param_names_;
};

}  // namespace pf
