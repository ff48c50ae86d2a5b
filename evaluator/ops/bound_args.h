// A node's normalised arguments bound to an environment that maps values to
// T: TensorType for inference, Tensor on the CPU, device tensors on the GPU.
// One accessor set serves all three, so op code reads arguments one way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/check.h"
#include "common/result.h"
#include "evaluator/core/ir.h"

namespace pf {

//! The literal-reading half, independent of T.
class ArgReader {
 public:
  ArgReader(const Node& node, const std::vector<std::string>* param_names)
      : node_(node), param_names_(param_names) {}

  const Node& node() const { return node_; }
  size_t size() const { return node_.args.size(); }
  const Arg& arg(size_t i) const {
    PF_CHECK(i < node_.args.size());
    return node_.args[i];
  }
  bool is_none(size_t i) const { return arg(i).is_none(); }
  bool is_tensor(size_t i) const { return arg(i).is_value(); }

  //! Typed reads; an error names the op and the parameter.
  Result<int64_t> integer(size_t i) const;
  Result<double> real(size_t i) const;        // ints widen
  Result<bool> boolean(size_t i) const;
  Result<std::string> string(size_t i) const;
  Result<DType> dtype(size_t i) const;
  //! A list of ints; a single int becomes a one-element list.
  Result<std::vector<int64_t>> ints(size_t i) const;
  std::optional<int64_t> optional_integer(size_t i) const;

  //! The parameter's name ("eps"), or its index if the names are unknown.
  std::string param_name(size_t i) const;
  //! "layer_norm: parameter 'eps': expected a number, got 'abc'"
  Error error(size_t i, const std::string& message) const;
  const std::string& op() const { return node_.op; }

 private:
  const Node& node_;
  const std::vector<std::string>* param_names_;
};

template <typename T>
class BoundArgs : public ArgReader {
 public:
  //! env[v] holds one T for a tensor value and n for a tensor-list value.
  BoundArgs(const Node& node, const std::vector<std::string>* param_names,
            const std::vector<std::vector<T>>& env)
      : ArgReader(node, param_names), env_(env) {}

  const T& tensor(size_t i) const {
    const Arg& a = arg(i);
    PF_CHECK(a.is_value() && !env_[a.value].empty());
    return env_[a.value][0];
  }
  const T* optional_tensor(size_t i) const { return is_tensor(i) ? &tensor(i) : nullptr; }
  //! Elements of a tensor-list parameter (a literal list of values, or a
  //! tensor-list value).
  std::vector<const T*> tensors(size_t i) const {
    std::vector<const T*> out;
    const Arg& a = arg(i);
    if (a.is_value()) {
      for (const auto& t : env_[a.value]) out.push_back(&t);
      return out;
    }
    for (const auto& item : a.items) {
      PF_CHECK(item.is_value());
      for (const auto& t : env_[item.value]) out.push_back(&t);
    }
    return out;
  }
  const std::vector<std::vector<T>>& env() const { return env_; }

 private:
  const std::vector<std::vector<T>>& env_;
};

}  // namespace pf
