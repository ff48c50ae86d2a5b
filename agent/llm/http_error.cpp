#include "agent/llm/http_error.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <nlohmann/json.hpp>

#include "common/strings.h"

namespace pf::llm {
namespace {

constexpr size_t kMaxMessageChars = 600;

std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string cut(std::string_view s) {
  s = trim(s);
  if (s.size() <= kMaxMessageChars) return std::string(s);
  return std::string(s.substr(0, kMaxMessageChars)) + "...";
}

// Wordings servers use when prompt + max_tokens exceed the context window.
constexpr std::string_view kOverflowPhrases[] = {
    "context_length_exceeded",                     // OpenAI error code
    "maximum context length",                      // OpenAI, vLLM, SGLang, OpenRouter
    "context length exceeded",                     //
    "exceeds the available context size",          // llama.cpp server
    "exceed_context_size_error",                   // llama.cpp server error type
    "longer than the model's context length",      // SGLang, Together
    "longer than the maximum model length",        // vLLM decoder prompt
    "exceeds the model's context length",          //
    "exceeds the maximum context length",          //
    "max_tokens is too large",                     // OpenAI
    "reduce the length of the messages",           // OpenAI, Groq
    "prompt is too long",                          // Anthropic-style gateways
    "maximum prompt length",                       // xAI
    "context_window_exceeded",                     //
    "exceeds the context window",                  //
    "input is too long",                           //
    "too large for model with",                    // Mistral
    "`inputs` tokens + `max_new_tokens` must be",  // TGI
    "exceeds the maximum allowed input length",    //
    "input length exceeds",                        //
};

}  // namespace

std::string error_message_from_body(std::string_view body) {
  auto j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_object()) {
    if (j.contains("error")) {
      const auto& e = j["error"];
      if (e.is_string()) return cut(e.get<std::string>());
      if (e.is_object() && e.contains("message") && e["message"].is_string()) {
        std::string msg = e["message"].get<std::string>();
        // Keep a machine code (context_length_exceeded, exceed_context_size_error) visible.
        for (const char* key : {"code", "type"}) {
          if (e.contains(key) && e[key].is_string()) {
            std::string code = e[key].get<std::string>();
            if (!code.empty() && msg.find(code) == std::string::npos) msg += " [" + code + "]";
          }
        }
        return cut(msg);
      }
    }
    if (j.contains("message") && j["message"].is_string()) {
      return cut(j["message"].get<std::string>());
    }
    if (j.contains("detail")) {
      return cut(j["detail"].is_string() ? j["detail"].get<std::string>() : j["detail"].dump());
    }
  }
  return cut(body);
}

bool is_context_overflow_message(std::string_view text) {
  std::string lower = lowercase(text);
  return std::any_of(
      std::begin(kOverflowPhrases), std::end(kOverflowPhrases),
      [&](std::string_view phrase) { return lower.find(phrase) != std::string::npos; });
}

AttemptOutcome classify_http_status(int status, std::string_view body) {
  if (status >= 200 && status < 300) return AttemptOutcome::ok;
  if (status == 429) return AttemptOutcome::rate_limited;
  if (status == 408 || status >= 500) return AttemptOutcome::server_error;
  if (status == 401 || status == 403) return AttemptOutcome::unauthorized;
  // 413: a proxy refused the body size, which only a shorter context fixes.
  if (status == 413) return AttemptOutcome::context_overflow;
  if (status >= 400 && is_context_overflow_message(body)) return AttemptOutcome::context_overflow;
  return AttemptOutcome::bad_request;
}

}  // namespace pf::llm
