#include "sandbox/ipc/protocol.h"

namespace pf::sandbox::ipc {
namespace {

using nlohmann::json;

Error envelope_error(const std::string& what) {
  return make_error(ErrorCode::parse_error, "bad IPC envelope: " + what);
}

Result<uint64_t> check_common(const json& message) {
  if (!message.is_object()) return envelope_error("not a JSON object");
  auto v = message.find("v");
  if (v == message.end() || !v->is_number_integer()) {
    return envelope_error("missing integer field 'v' (protocol version)");
  }
  if (v->get<int64_t>() != kProtocolVersion) {
    return envelope_error("protocol version " + v->dump() + ", expected " +
                          std::to_string(kProtocolVersion) +
                          " (orchestrator and worker come from different builds)");
  }
  auto id = message.find("id");
  if (id == message.end() || !id->is_number_integer() ||
      (!id->is_number_unsigned() && id->get<int64_t>() < 0)) {
    return envelope_error("missing non-negative integer field 'id'");
  }
  return id->get<uint64_t>();
}

}  // namespace

json encode_request(const Request& request) {
  json out = {
      {"v", kProtocolVersion}, {"id", request.id}, {"type", request.type}, {"body", request.body}};
  if (request.deadline_ms) out["deadline_ms"] = *request.deadline_ms;
  return out;
}

json encode_reply(const Reply& reply) {
  json out = {{"v", kProtocolVersion}, {"id", reply.id}, {"ok", reply.ok}};
  if (reply.ok) {
    out["body"] = reply.body;
  } else {
    out["error"] = {{"code", error_code_name(reply.error.code)}, {"message", reply.error.message}};
  }
  if (!reply.poisoned.empty()) out["poisoned"] = reply.poisoned;
  return out;
}

Result<Request> decode_request(const json& message) {
  PF_ASSIGN(uint64_t id, check_common(message));
  Request request;
  request.id = id;
  auto type = message.find("type");
  if (type == message.end() || !type->is_string() || type->get<std::string>().empty()) {
    return envelope_error("request without a non-empty string 'type'");
  }
  request.type = type->get<std::string>();
  auto body = message.find("body");
  if (body != message.end()) {
    if (!body->is_object()) return envelope_error("request 'body' must be an object");
    request.body = *body;
  }
  auto deadline = message.find("deadline_ms");
  if (deadline != message.end()) {
    if (!deadline->is_number_integer() || deadline->get<int64_t>() < 0) {
      return envelope_error("'deadline_ms' must be a non-negative integer");
    }
    request.deadline_ms = deadline->get<int64_t>();
  }
  return request;
}

Result<Reply> decode_reply(const json& message) {
  PF_ASSIGN(uint64_t id, check_common(message));
  Reply reply;
  reply.id = id;
  auto ok = message.find("ok");
  if (ok == message.end() || !ok->is_boolean()) return envelope_error("reply without boolean 'ok'");
  reply.ok = ok->get<bool>();
  if (reply.ok) {
    auto body = message.find("body");
    if (body != message.end()) {
      if (!body->is_object()) return envelope_error("reply 'body' must be an object");
      reply.body = *body;
    }
  } else {
    auto error = message.find("error");
    if (error == message.end() || !error->is_object()) {
      return envelope_error("failed reply without an 'error' object");
    }
    auto code = error->find("code");
    auto text = error->find("message");
    if (code == error->end() || !code->is_string() || text == error->end() || !text->is_string()) {
      return envelope_error("reply 'error' needs string 'code' and 'message'");
    }
    reply.error =
        make_error(error_code_from_name(code->get<std::string>()), text->get<std::string>());
  }
  auto poisoned = message.find("poisoned");
  if (poisoned != message.end()) {
    if (!poisoned->is_string()) return envelope_error("'poisoned' must be a string");
    reply.poisoned = poisoned->get<std::string>();
    if (reply.poisoned.empty()) reply.poisoned = "unspecified";
  }
  return reply;
}

ErrorCode error_code_from_name(const std::string& name) {
  for (ErrorCode code : {ErrorCode::invalid_argument, ErrorCode::not_found, ErrorCode::unsupported,
                         ErrorCode::parse_error, ErrorCode::io_error, ErrorCode::timeout,
                         ErrorCode::unavailable, ErrorCode::internal}) {
    if (name == error_code_name(code)) return code;
  }
  return ErrorCode::internal;
}

}  // namespace pf::sandbox::ipc
