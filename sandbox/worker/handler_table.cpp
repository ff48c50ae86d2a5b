#include "sandbox/worker/handler_table.h"

#include "common/check.h"
#include "sandbox/ipc/protocol.h"

namespace pf::sandbox {

void HandlerTable::add(const std::string& type, Handler handler) {
  PF_CHECK_MSG(!type.empty() && handler, "handler needs a type and a function");
  for (const char* builtin : {ipc::kHello, ipc::kPing, ipc::kProbeIsolation, ipc::kShutdown}) {
    PF_CHECK_MSG(type != builtin, "built-in request types cannot be replaced");
  }
  bool inserted = handlers_.emplace(type, std::move(handler)).second;
  PF_CHECK_MSG(inserted, "request type registered twice");
}

const Handler* HandlerTable::find(const std::string& type) const {
  auto it = handlers_.find(type);
  return it == handlers_.end() ? nullptr : &it->second;
}

std::vector<std::string> HandlerTable::types() const {
  std::vector<std::string> out;
  for (const auto& [type, handler] : handlers_) out.push_back(type);
  return out;
}

}  // namespace pf::sandbox
