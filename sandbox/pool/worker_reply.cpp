#include "sandbox/pool/worker_reply.h"

namespace pf::sandbox {

const char* reply_status_name(ReplyStatus status) {
  switch (status) {
    case ReplyStatus::ok:
      return "ok";
    case ReplyStatus::error:
      return "error";
    case ReplyStatus::timeout:
      return "timeout";
    case ReplyStatus::crashed:
      return "crashed";
    case ReplyStatus::protocol_error:
      return "protocol_error";
    case ReplyStatus::resource_limit:
      return "resource_limit";
    case ReplyStatus::unavailable:
      return "unavailable";
  }
  return "unavailable";
}

std::string WorkerReply::describe() const {
  std::string out = reply_status_name(status);
  if (status != ReplyStatus::ok) out += ": " + error.message;
  if (!poisoned.empty()) out += " (worker poisoned: " + poisoned + "; replaced)";
  return out;
}

}  // namespace pf::sandbox
