// Request handlers of a worker, by request type. Filled before run_worker
// starts; read-only afterwards.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/result.h"

namespace pf::sandbox {

//! Answers one request body with a reply body or an Error (sent back to the
//! caller as an `error` reply). May throw: the worker converts exceptions into
//! internal errors. A handler whose process state is broken (sticky CUDA
//! error) calls declare_poisoned() (sandbox/worker/run_worker.h) before
//! returning.
using Handler = std::function<Result<nlohmann::json>(const nlohmann::json& body)>;

class HandlerTable {
 public:
  //! Registers `handler` for `type`. Registering a type twice, or one of the
  //! built-in types (hello, ping, probe_isolation, shutdown), is a bug.
  void add(const std::string& type, Handler handler);
  const Handler* find(const std::string& type) const;
  //! Registered types, sorted.
  std::vector<std::string> types() const;

 private:
  std::map<std::string, Handler> handlers_;
};

}  // namespace pf::sandbox
