#include "agent/llm/chat_response.h"

#include "agent/llm/chat_request.h"

namespace pf::llm {
namespace {

int64_t count_at(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<int64_t>() : 0;
}

std::optional<int64_t> nested_count(const nlohmann::json& j, const char* outer, const char* key) {
  auto it = j.find(outer);
  if (it == j.end() || !it->is_object()) return std::nullopt;
  auto inner = it->find(key);
  if (inner == it->end() || !inner->is_number()) return std::nullopt;
  return inner->get<int64_t>();
}

}  // namespace

nlohmann::json Usage::to_json() const {
  nlohmann::json j = {{"prompt_tokens", prompt_tokens},
                      {"completion_tokens", completion_tokens},
                      {"total_tokens", total_tokens}};
  if (cached_tokens) j["cached_tokens"] = *cached_tokens;
  if (reasoning_tokens) j["reasoning_tokens"] = *reasoning_tokens;
  if (estimated) j["estimated"] = true;
  return j;
}

Usage Usage::from_json(const nlohmann::json& j) {
  Usage u;
  if (!j.is_object()) return u;
  u.prompt_tokens = count_at(j, "prompt_tokens");
  u.completion_tokens = count_at(j, "completion_tokens");
  u.total_tokens = count_at(j, "total_tokens");
  if (u.total_tokens == 0) u.total_tokens = u.prompt_tokens + u.completion_tokens;
  u.cached_tokens = nested_count(j, "prompt_tokens_details", "cached_tokens");
  u.reasoning_tokens = nested_count(j, "completion_tokens_details", "reasoning_tokens");
  return u;
}

const char* attempt_outcome_name(AttemptOutcome outcome) {
  switch (outcome) {
    case AttemptOutcome::ok:
      return "ok";
    case AttemptOutcome::rate_limited:
      return "rate_limited";
    case AttemptOutcome::server_error:
      return "server_error";
    case AttemptOutcome::timeout:
      return "timeout";
    case AttemptOutcome::connection:
      return "connection";
    case AttemptOutcome::truncated:
      return "truncated";
    case AttemptOutcome::malformed:
      return "malformed";
    case AttemptOutcome::context_overflow:
      return "context_overflow";
    case AttemptOutcome::unauthorized:
      return "unauthorized";
    case AttemptOutcome::bad_request:
      return "bad_request";
    case AttemptOutcome::cancelled:
      return "cancelled";
  }
  return "unknown";
}

bool is_retryable(AttemptOutcome outcome) {
  switch (outcome) {
    case AttemptOutcome::rate_limited:
    case AttemptOutcome::server_error:
    case AttemptOutcome::timeout:
    case AttemptOutcome::connection:
    case AttemptOutcome::truncated:
    case AttemptOutcome::malformed:
      return true;
    default:
      return false;
  }
}

nlohmann::json AttemptRecord::to_json() const {
  nlohmann::json j = {{"number", number},
                      {"outcome", attempt_outcome_name(outcome)},
                      {"http_status", http_status},
                      {"latency_s", latency_s},
                      {"wait_s", wait_s}};
  if (retry_after_s) j["retry_after_s"] = *retry_after_s;
  if (!detail.empty()) j["detail"] = detail;
  return j;
}

Result<ChatResponse> parse_chat_completion(std::string_view body) {
  auto j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    return make_error(ErrorCode::parse_error, "response body is not valid JSON");
  }
  if (!j.is_object()) return make_error(ErrorCode::parse_error, "response body is not an object");
  if (j.contains("error") && !j["error"].is_null()) {
    const auto& e = j["error"];
    std::string message = e.is_object() && e.contains("message") && e["message"].is_string()
                              ? e["message"].get<std::string>()
                              : e.dump();
    return make_error(ErrorCode::unavailable, message);
  }
  auto choices = j.find("choices");
  if (choices == j.end() || !choices->is_array() || choices->empty()) {
    return make_error(ErrorCode::parse_error, "response has no choices");
  }
  const auto& choice = (*choices)[0];
  if (!choice.is_object() || !choice.contains("message")) {
    return make_error(ErrorCode::parse_error, "choices[0] has no message");
  }
  auto message = ChatMessage::from_json(choice["message"]);
  if (!message.ok()) {
    return make_error(ErrorCode::parse_error, "choices[0].message: " + message.error().message);
  }
  ChatResponse r;
  r.message = std::move(message).value();
  r.message.role = "assistant";
  if (choice.contains("finish_reason") && choice["finish_reason"].is_string()) {
    r.finish_reason = choice["finish_reason"].get<std::string>();
  }
  if (j.contains("usage") && j["usage"].is_object()) {
    r.usage = Usage::from_json(j["usage"]);
  } else {
    r.usage.estimated = true;
  }
  if (j.contains("id") && j["id"].is_string()) r.id = j["id"].get<std::string>();
  if (j.contains("model") && j["model"].is_string()) r.model = j["model"].get<std::string>();
  return r;
}

void estimate_missing_usage(ChatResponse& response, std::string_view request_body) {
  if (!response.usage.estimated) return;
  int64_t completion =
      estimate_tokens(response.message.content) + estimate_tokens(response.message.reasoning);
  for (const auto& call : response.message.tool_calls) {
    completion += estimate_tokens(call.name) + estimate_tokens(call.arguments);
  }
  response.usage.prompt_tokens = estimate_tokens(request_body);
  response.usage.completion_tokens = completion;
  response.usage.total_tokens = response.usage.prompt_tokens + completion;
}

}  // namespace pf::llm
