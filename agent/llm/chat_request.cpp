#include "agent/llm/chat_request.h"

namespace pf::llm {

Sampling Sampling::merged_over(const Sampling& defaults) const {
  Sampling s;
  s.temperature = temperature ? temperature : defaults.temperature;
  s.top_p = top_p ? top_p : defaults.top_p;
  s.max_tokens = max_tokens ? max_tokens : defaults.max_tokens;
  s.seed = seed ? seed : defaults.seed;
  s.stop = stop.empty() ? defaults.stop : stop;
  return s;
}

nlohmann::json build_request_body(const ChatRequest& request, const RequestDefaults& defaults) {
  nlohmann::json body;
  body["model"] = request.model.empty() ? defaults.model : request.model;
  auto messages = nlohmann::json::array();
  for (const auto& m : request.messages) messages.push_back(m.to_json(request.reasoning_key));
  body["messages"] = std::move(messages);
  if (request.tools.is_array() && !request.tools.empty()) body["tools"] = request.tools;
  if (!request.tool_choice.is_null()) body["tool_choice"] = request.tool_choice;
  if (body.contains("tools") && request.parallel_tool_calls) {
    body["parallel_tool_calls"] = *request.parallel_tool_calls;
  }

  Sampling s = request.sampling.merged_over(defaults.sampling);
  if (s.temperature) body["temperature"] = *s.temperature;
  if (s.top_p) body["top_p"] = *s.top_p;
  if (s.max_tokens) body["max_tokens"] = *s.max_tokens;
  if (s.seed) body["seed"] = *s.seed;
  if (!s.stop.empty()) body["stop"] = s.stop;
  if (defaults.stream) {
    body["stream"] = true;
    body["stream_options"] = {{"include_usage", true}};
  }
  if (defaults.extra.is_object()) body.merge_patch(defaults.extra);
  if (request.extra.is_object()) body.merge_patch(request.extra);
  return body;
}

int64_t estimate_tokens(std::string_view text) {
  return static_cast<int64_t>((text.size() + 3) / 4);
}

}  // namespace pf::llm
