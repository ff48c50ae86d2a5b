#include "agent/llm/llm_client.h"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <optional>

#include "agent/llm/http_error.h"
#include "agent/llm/retry_policy.h"
#include "agent/llm/sse_parser.h"
#include "agent/llm/stream_assembler.h"
#include "common/strings.h"

namespace pf::llm {
namespace {

std::string dump_safe(const nlohmann::json& j) {
  // Text from compilers or models may hold invalid UTF-8; replace it rather than throw.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string trim_base(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

std::optional<double> retry_after_of(const HttpReply& reply, Clock& clock) {
  if (auto it = reply.headers.find("retry-after-ms"); it != reply.headers.end()) {
    if (auto s = parse_retry_after_ms(it->second)) return s;
  }
  if (auto it = reply.headers.find("retry-after"); it != reply.headers.end()) {
    return parse_retry_after(it->second, clock.wall_now());
  }
  return std::nullopt;
}

bool is_event_stream(const HttpReply& reply) {
  auto it = reply.headers.find("content-type");
  return it != reply.headers.end() && it->second.find("text/event-stream") != std::string::npos;
}

// Outcomes that say the server (not the request) is unwell: its replicas
// should take the next attempts.
bool is_server_failure(AttemptOutcome o) {
  switch (o) {
    case AttemptOutcome::connection:
    case AttemptOutcome::timeout:
    case AttemptOutcome::server_error:
    case AttemptOutcome::rate_limited:
    case AttemptOutcome::truncated:
      return true;
    default:
      return false;
  }
}

// A 200 body that carries an error object: classified by what it says.
AttemptOutcome outcome_of_error_message(const std::string& message) {
  return is_context_overflow_message(message) ? AttemptOutcome::context_overflow
                                              : AttemptOutcome::server_error;
}

}  // namespace

struct LlmClient::AttemptResult {
  AttemptOutcome outcome = AttemptOutcome::ok;
  std::string detail;
  std::optional<ChatResponse> response;
};

Result<std::unique_ptr<LlmClient>> LlmClient::create(LlmOptions options,
                                                     std::shared_ptr<Clock> clock) {
  if (options.base_url.empty() && !options.base_urls.empty()) {
    options.base_url = options.base_urls.front();
  }
  PF_TRY(options.validate());
  options.base_url = trim_base(options.base_url);
  for (auto& url : options.base_urls) url = trim_base(url);
  std::string auth;
  if (!options.api_key_env.empty()) {
    const char* key = std::getenv(options.api_key_env.c_str());
    if (key != nullptr && *key != '\0') auth = std::string("Authorization: Bearer ") + key;
  }
  if (!clock) clock = std::make_shared<SystemClock>();
  return std::unique_ptr<LlmClient>(
      new LlmClient(std::move(options), std::move(auth), std::move(clock)));
}

LlmClient::LlmClient(LlmOptions options, std::string auth_header, std::shared_ptr<Clock> clock)
    : options_(std::move(options)),
      auth_header_(std::move(auth_header)),
      clock_(std::move(clock)),
      limiter_(LimiterOptions{options_.max_concurrent, options_.requests_per_minute,
                              options_.tokens_per_minute},
               *clock_),
      servers_(options_.base_urls.empty() ? std::vector<std::string>{options_.base_url}
                                          : options_.base_urls,
               clock_),
      rng_(std::random_device{}()) {}

std::vector<std::string> LlmClient::http_headers(const ChatRequest* request) const {
  std::vector<std::string> headers = {"Content-Type: application/json",
                                      "Accept: application/json, text/event-stream"};
  if (!auth_header_.empty()) headers.push_back(auth_header_);
  auto add = [&headers](const std::string& name, const std::string& value) {
    headers.push_back(name);
    headers.back().append(": ").append(value);
  };
  for (const auto& [name, value] : options_.headers) add(name, value);
  if (request != nullptr) {
    for (const auto& [name, value] : request->headers) add(name, value);
  }
  return headers;
}

double LlmClient::jitter_sample() {
  std::lock_guard lock(rng_mutex_);
  return std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
}

LlmClient::AttemptResult LlmClient::evaluate(const HttpReply& reply) const {
  switch (reply.error) {
    case TransportError::none:
      break;
    case TransportError::timeout:
      return {AttemptOutcome::timeout, "timed out: " + reply.error_message, {}};
    case TransportError::idle_timeout:
      return {AttemptOutcome::timeout, reply.error_message, {}};
    case TransportError::truncated:
      return {AttemptOutcome::truncated, "body cut short: " + reply.error_message, {}};
    case TransportError::cancelled:
      return {AttemptOutcome::cancelled, "cancelled", {}};
    case TransportError::connection:
    case TransportError::other:
      return {AttemptOutcome::connection, "connection failed: " + reply.error_message, {}};
  }
  int status = static_cast<int>(reply.status);
  if (status < 200 || status >= 300) {
    std::string detail =
        "HTTP " + std::to_string(status) + ": " + error_message_from_body(reply.body);
    auto body = nlohmann::json::parse(reply.body, nullptr, /*allow_exceptions=*/false);
    if (status == 404 && !(body.is_object() && body.contains("error"))) {
      // Not an API's own "not found" answer: most likely a wrong path.
      detail +=
          " (is endpoint.base_url right? it should end where /chat/completions is appended, "
          "e.g. http://127.0.0.1:8000/v1)";
    }
    return {classify_http_status(status, reply.body), std::move(detail), {}};
  }
  Result<ChatResponse> parsed = make_error(ErrorCode::internal, "unparsed");
  std::string raw;
  if (is_event_stream(reply)) {
    SseParser parser;
    StreamAssembler assembler;
    auto events = parser.feed(reply.body);
    for (auto& e : parser.finish()) events.push_back(std::move(e));
    for (const auto& event : events) {
      auto st = assembler.add(event.data);
      if (!st.ok()) {
        if (st.error().code == ErrorCode::unavailable) {
          return {outcome_of_error_message(st.error().message),
                  "error event in stream: " + st.error().message,
                  {}};
        }
        return {AttemptOutcome::malformed, st.error().message, {}};
      }
    }
    if (!assembler.complete()) {
      return {AttemptOutcome::truncated, assembler.finish().error().message, {}};
    }
    parsed = assembler.finish();
    raw = dump_safe(assembler.as_completion_json());
  } else {
    parsed = parse_chat_completion(reply.body);
    raw = reply.body;
  }
  if (!parsed.ok()) {
    const Error& e = parsed.error();
    if (e.code == ErrorCode::unavailable) {
      return {outcome_of_error_message(e.message), "error in response body: " + e.message, {}};
    }
    return {AttemptOutcome::malformed, e.message, {}};
  }
  AttemptResult result{AttemptOutcome::ok, "", std::move(parsed).value()};
  result.response->raw_response = std::move(raw);
  return result;
}

ChatOutcome LlmClient::chat(const ChatRequest& request, const CancelToken* cancel) {
  const auto start = clock_->now();
  RequestDefaults defaults{options_.model, options_.sampling, options_.extra, options_.stream};
  HttpRequest http;
  http.headers = http_headers(&request);
  http.body = dump_safe(build_request_body(request, defaults));
  http.timeout_s = options_.request_timeout_s;
  http.connect_timeout_s = options_.connect_timeout_s;
  http.idle_timeout_s = options_.stream ? options_.stream_idle_timeout_s : 0;
  http.cancel = cancel;
  const auto max_tokens = request.sampling.merged_over(options_.sampling).max_tokens;
  const int64_t estimate = estimate_tokens(http.body) + max_tokens.value_or(0);

  std::vector<AttemptRecord> attempts;
  auto fail = [&](ErrorKind kind, std::string message, const HttpReply* last) {
    ChatFailure f;
    f.kind = kind;
    f.message = std::move(message);
    f.http_status = last != nullptr ? static_cast<int>(last->status) : 0;
    f.total_time_s = seconds_between(start, clock_->now());
    f.attempts = std::move(attempts);
    f.raw_request = http.body;
    if (last != nullptr) f.raw_response = last->body;
    return ChatOutcome(std::move(f));
  };

  size_t failed_server = EndpointSet::kNone;
  int number = 0;  // attempts so far, re-sends by the HTTP layer included
  for (;;) {
    auto permit = limiter_.acquire(estimate, cancel);
    if (!permit)
      return fail(ErrorKind::cancelled, "cancelled while waiting for a request slot", nullptr);
    const EndpointSet::Pick server = servers_.acquire(failed_server);
    http.url = server.url + "/chat/completions";
    HttpReply reply = transport_.perform(http);
    permit.reset();
    AttemptResult result = evaluate(reply);
    const bool server_failed = is_server_failure(result.outcome);
    servers_.release(server.index, server_failed);
    failed_server = server_failed ? server.index : EndpointSet::kNone;
    if (servers_.size() > 1 && result.outcome != AttemptOutcome::ok) {
      result.detail = server.url + ": " + result.detail;
    }

    for (int r = 0; r < reply.resends; ++r) {
      AttemptRecord resent;
      resent.number = ++number;
      resent.outcome = AttemptOutcome::connection;
      resent.detail = server.url +
                      ": the connection died before any response; the HTTP layer sent the "
                      "request again on a new one";
      attempts.push_back(std::move(resent));
    }
    AttemptRecord record;
    record.number = ++number;
    record.outcome = result.outcome;
    record.http_status = static_cast<int>(reply.status);
    record.latency_s = reply.latency_s;
    record.detail = result.detail;
    if (result.outcome != AttemptOutcome::ok) record.retry_after_s = retry_after_of(reply, *clock_);

    if (result.outcome == AttemptOutcome::ok) {
      ChatResponse response = std::move(*result.response);
      estimate_missing_usage(response, http.body);
      limiter_.settle_tokens(estimate, response.usage.total_tokens);
      attempts.push_back(std::move(record));
      response.latency_s = reply.latency_s;
      response.total_time_s = seconds_between(start, clock_->now());
      response.attempts = std::move(attempts);
      response.http_status = static_cast<int>(reply.status);
      response.raw_request = http.body;
      return response;
    }
    limiter_.settle_tokens(estimate, 0);
    if (!is_retryable(result.outcome)) {
      std::string message = result.detail;
      if (result.outcome == AttemptOutcome::unauthorized) {
        message += has_api_key() ? " (check the key in $" + options_.api_key_env + ")"
                                 : " (no API key was sent: set $" + options_.api_key_env +
                                       " or endpoint.api_key_env)";
      }
      attempts.push_back(std::move(record));
      return fail(error_kind_for(result.outcome), std::move(message), &reply);
    }

    // Another healthy server takes the retry at once (failover); the backoff
    // and Retry-After are for waiting on the same server(s).
    const bool failover = server_failed && servers_.other_healthy(server.index);
    double wait = failover               ? 0
                  : record.retry_after_s ? *record.retry_after_s
                                         : backoff_delay_s(number, options_.backoff_initial_s,
                                                           options_.backoff_max_s, jitter_sample());
    double elapsed = seconds_between(start, clock_->now());
    bool out_of_time = options_.max_retry_time_s > 0 && elapsed + wait > options_.max_retry_time_s;
    if (number >= options_.max_attempts || out_of_time) {
      attempts.push_back(std::move(record));
      std::string why = number >= options_.max_attempts
                            ? "after " + std::to_string(number) + " attempts"
                            : "after " + std::to_string(number) + " attempts (waiting " +
                                  format_double(wait) + " s more would pass max_retry_time_s " +
                                  format_double(options_.max_retry_time_s) + ")";
      return fail(error_kind_for(result.outcome),
                  "gave up " + why + " in " + format_double(elapsed) + " s; last: " + result.detail,
                  &reply);
    }
    record.wait_s = wait;
    spdlog::warn("LLM request to {}: attempt {}/{} failed ({}: {}); retrying in {:.1f} s",
                 server.url, number, options_.max_attempts, attempt_outcome_name(result.outcome),
                 result.detail, wait);
    attempts.push_back(std::move(record));
    if (!clock_->sleep_for(Clock::Seconds(wait), cancel)) {
      return fail(ErrorKind::cancelled, "cancelled while waiting to retry", &reply);
    }
  }
}

Result<std::vector<std::string>> LlmClient::list_models() {
  HttpRequest http;
  http.method = "GET";
  http.url = options_.base_url + "/models";
  http.headers = http_headers(nullptr);
  http.timeout_s = options_.models_timeout_s;
  http.connect_timeout_s = std::min(options_.connect_timeout_s, options_.models_timeout_s);
  HttpReply reply = transport_.perform(http);
  if (reply.error != TransportError::none) {
    return make_error(
        reply.error == TransportError::timeout ? ErrorCode::timeout : ErrorCode::unavailable,
        "GET " + http.url + ": " + reply.error_message);
  }
  if (reply.status < 200 || reply.status >= 300) {
    return make_error(reply.status == 401 || reply.status == 403 ? ErrorCode::invalid_argument
                                                                 : ErrorCode::unavailable,
                      "GET " + http.url + ": HTTP " + std::to_string(reply.status) + ": " +
                          error_message_from_body(reply.body));
  }
  auto j = nlohmann::json::parse(reply.body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("data") || !j["data"].is_array()) {
    return make_error(ErrorCode::parse_error, "GET " + http.url +
                                                  ": expected {\"data\": [...]}, got: " +
                                                  error_message_from_body(reply.body));
  }
  std::vector<std::string> ids;
  for (const auto& m : j["data"]) {
    if (m.is_object() && m.contains("id") && m["id"].is_string()) {
      ids.push_back(m["id"].get<std::string>());
    }
  }
  return ids;
}

}  // namespace pf::llm
