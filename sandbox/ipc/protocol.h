// The orchestrator <-> passforge-worker protocol, shared by both processes
//. Every message is one frame (sandbox/ipc/frame.h) holding an
// envelope, validated on receipt:
//
//   request  {"v":1,"id":N,"type":"compile","deadline_ms":M,"body":{...}}
//   reply    {"v":1,"id":N,"ok":true,"body":{...}}
//            {"v":1,"id":N,"ok":false,"error":{"code":"invalid_argument","message":"..."}}
//
// A reply may add "poisoned":"<reason>": the worker's process state is no longer
// trustworthy (e.g. a sticky CUDA error) and it exits right after the reply.
// `deadline_ms` is the time the orchestrator allows for the request; the
// worker may use it to bound its own work (it is killed at the deadline anyway).
//
// Start-up: the orchestrator sends "hello" (its protocol version in the body);
// the worker, already isolated, answers with its pid, protocol version, the
// isolation report and the request types it handles. A version mismatch is an
// error reply naming both versions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/result.h"

namespace pf::sandbox::ipc {

inline constexpr int kProtocolVersion = 1;

// Built-in request types every worker answers.
inline constexpr const char* kHello = "hello";
inline constexpr const char* kPing = "ping";
inline constexpr const char* kProbeIsolation = "probe_isolation";
inline constexpr const char* kShutdown = "shutdown";

struct Request {
  uint64_t id = 0;
  std::string type;
  nlohmann::json body = nlohmann::json::object();
  std::optional<int64_t> deadline_ms;  // absent: no deadline given
};

struct Reply {
  uint64_t id = 0;
  bool ok = true;
  nlohmann::json body = nlohmann::json::object();  // when ok
  Error error;                                     // when !ok
  std::string poisoned;                            // non-empty: the worker exits after this reply
};

nlohmann::json encode_request(const Request& request);
nlohmann::json encode_reply(const Reply& reply);

//! Validates an envelope (version, field types, body/error shape); errors are
//! parse_error naming the offending field.
Result<Request> decode_request(const nlohmann::json& message);
Result<Reply> decode_reply(const nlohmann::json& message);

//! Inverse of pf::error_code_name; unknown names map to internal.
ErrorCode error_code_from_name(const std::string& name);

}  // namespace pf::sandbox::ipc
