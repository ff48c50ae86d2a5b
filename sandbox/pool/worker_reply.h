// The answer to one WorkerPool::call: what the worker's handler said, or how
// the request failed at the process level. The evaluator maps `timeout` to
// the timeout class, `resource_limit` to the resource_limit class and
// `crashed` to runtime_fail (with the signal name).
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "common/result.h"

namespace pf::sandbox {

enum class ReplyStatus {
  ok,              // the handler answered; `body` holds its reply
  error,           // the handler returned an Error; `error` holds it
  timeout,         // no reply before the deadline; the worker was killed and replaced
  crashed,         // the worker died (signal or exit) during the request; replaced
  protocol_error,  // the worker sent something that is not a valid reply; replaced
  resource_limit,  // the request hit a worker limit (memory, compile time, ...); `error`
                   // names the limit and its value; the worker was replaced
  unavailable,     // no worker could take the request (none starts, all busy until the
                   // deadline, pool closing); nothing was executed
};

const char* reply_status_name(ReplyStatus status);

struct WorkerReply {
  ReplyStatus status = ReplyStatus::unavailable;
  nlohmann::json body = nlohmann::json::object();
  Error error;              // every status but ok: what happened, in words
  std::string signal;       // crashed by a signal: "SIGSEGV"
  int exit_code = -1;       // crashed by exiting: the status
  std::string stderr_tail;  // timeout, crashed, protocol_error: the worker's last output
  std::string poisoned;     // the worker declared its state poisoned (it was replaced)
  bool worker_replaced = false;
  int worker_pid = 0;
  int slot = -1;
  std::chrono::milliseconds elapsed{0};

  bool ok() const { return status == ReplyStatus::ok; }
  //! One line: "crashed: worker 123 killed by SIGSEGV (Segmentation fault)".
  std::string describe() const;
};

}  // namespace pf::sandbox
