#include "agent/replay/replay_responder.h"

#include <ctime>

#include "agent/llm/chat_request.h"
#include "common/strings.h"

namespace pf::replay {
namespace {

constexpr size_t kMaxListedTasks = 20;

// Typed field reads that never throw on a client's wrong types.
std::string string_at(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool bool_at(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

std::string text_of(const nlohmann::json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (content.is_array()) {
    for (const auto& part : content) {
      if (part.is_object() && part.contains("text") && part["text"].is_string()) {
        text += part["text"].get<std::string>();
      }
    }
  }
  return text;
}

// "Task id: <id>" anywhere in the first user message.
std::string task_from_messages(const nlohmann::json& messages) {
  for (const auto& m : messages) {
    if (!m.is_object() || string_at(m, "role") != "user") continue;
    std::string text = text_of(m.contains("content") ? m["content"] : nlohmann::json());
    auto pos = text.find("Task id:");
    if (pos == std::string::npos) return "";
    std::string_view rest = std::string_view(text).substr(pos + 8);
    rest = rest.substr(std::min(rest.size(), rest.find_first_not_of(" \t")));
    return std::string(rest.substr(0, rest.find_first_of(" \t\r\n")));
  }
  return "";
}

// Pieces of at most `n` bytes that never split a UTF-8 sequence.
std::vector<std::string> pieces(const std::string& text, size_t n) {
  std::vector<std::string> out;
  size_t pos = 0;
  n = std::max<size_t>(n, 4);
  while (pos < text.size()) {
    size_t end = std::min(text.size(), pos + n);
    while (end < text.size() && end > pos + 1 &&
           (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
      --end;
    }
    out.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

int64_t message_tokens(const nlohmann::json& m) {
  int64_t n = 4;  // role and framing
  if (!m.is_object()) return n;
  n += llm::estimate_tokens(text_of(m.contains("content") ? m["content"] : nlohmann::json()));
  for (const char* key : {"reasoning_content", "reasoning"}) {
    if (m.contains(key) && m[key].is_string()) {
      n += llm::estimate_tokens(m[key].get<std::string>());
      break;
    }
  }
  if (m.contains("tool_calls") && m["tool_calls"].is_array()) {
    n += llm::estimate_tokens(m["tool_calls"].dump());
  }
  return n;
}

std::string dump_safe(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// How each server shapes what the same answer looks like on the wire, as
// their documentation and issue threads show it (docs/replay-script.md).
struct WireShape {
  const char* reasoning_key = "reasoning_content";
  bool role_content_null = false;        // first delta {"role", "content": null}
  bool usage_null_in_chunks = false;     // "usage": null on every chunk but the last
  bool one_index_for_all_calls = false;  // every tool call streamed as index 0
  bool id_on_every_fragment = false;     // the call id repeated on argument fragments
  bool arguments_with_name = false;      // the first fragment carries arguments too
  bool timings = false;                  // llama.cpp's "timings" object
  bool usage_with_finish = false;        // usage in the finish_reason chunk, no usage chunk
  const char* choice_extra = nullptr;    // a server-specific null field on the final choice
};

WireShape wire_shape(ServerShape server) {
  WireShape w;
  switch (server) {
    case ServerShape::openai:
      w.role_content_null = true;
      w.usage_null_in_chunks = true;
      break;
    case ServerShape::vllm:
      w.reasoning_key = "reasoning";
      w.arguments_with_name = true;
      w.choice_extra = "stop_reason";
      break;
    case ServerShape::sglang:
      w.one_index_for_all_calls = true;
      w.id_on_every_fragment = true;
      w.choice_extra = "matched_stop";
      break;
    case ServerShape::llamacpp:
      w.role_content_null = true;
      w.timings = true;
      w.usage_with_finish = true;
      break;
  }
  return w;
}

void add_choice_extras(nlohmann::json& choice, const WireShape& shape) {
  if (shape.choice_extra != nullptr) choice[shape.choice_extra] = nullptr;
}

nlohmann::json timings_of(const nlohmann::json& usage) {
  return {{"prompt_n", usage["prompt_tokens"]},
          {"prompt_ms", 1.0},
          {"predicted_n", usage["completion_tokens"]},
          {"predicted_ms", 1.0}};
}

ReplayReply error_reply(int status, const std::string& message, const std::string& code) {
  ReplayReply r;
  r.status = status;
  r.body = openai_error(message, "invalid_request_error", code);
  return r;
}

}  // namespace

nlohmann::json openai_error(const std::string& message, const std::string& type,
                            const std::string& code) {
  return {{"error", {{"message", message}, {"type", type}, {"param", nullptr}, {"code", code}}}};
}

ReplayResponder::ReplayResponder(const ReplayScript& script, ReplayOptions options)
    : script_(script), options_(std::move(options)) {}

nlohmann::json ReplayResponder::models() const {
  return {
      {"object", "list"},
      {"data", {{{"id", options_.model}, {"object", "model"}, {"owned_by", "passforge-replay"}}}}};
}

ReplayReply ReplayResponder::chat_completion(std::string_view body,
                                             const std::string& task_header) const {
  auto request = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (request.is_discarded() || !request.is_object()) {
    return error_reply(400, "request body is not a JSON object", "invalid_json");
  }
  if (!request.contains("messages") || !request["messages"].is_array()) {
    return error_reply(400, "request has no \"messages\" array", "missing_messages");
  }
  const auto& messages = request["messages"];
  std::string task = task_header.empty() ? task_from_messages(messages) : task_header;
  if (task.empty()) {
    return error_reply(400,
                       std::string("replay server: no task id; send the header ") +
                           llm::kTaskHeader +
                           " or a line 'Task id: <id>' in the first user message",
                       "missing_task");
  }
  const bool tools =
      request.contains("tools") && request["tools"].is_array() && !request["tools"].empty();
  const std::string mode = tools ? "tools" : "chat";
  const ScriptEntry* entry = script_.find(task, mode, string_at(request, "model"));
  if (entry == nullptr) {
    auto modes = script_.modes_of(task);
    if (!modes.empty()) {
      return error_reply(404,
                         "replay script has task '" + task + "' only in mode " + join(modes, ", ") +
                             ", not in mode " + mode + (tools ? " (the request has tools)" : ""),
                         "unknown_task");
    }
    auto ids = script_.task_ids();
    std::string known;
    for (size_t i = 0; i < ids.size() && i < kMaxListedTasks; ++i)
      known += (i ? ", " : "") + ids[i];
    if (ids.size() > kMaxListedTasks) {
      known += " and " + std::to_string(ids.size() - kMaxListedTasks) + " more";
    }
    return error_reply(404, "replay script has no task '" + task + "'; known tasks: " + known,
                       "unknown_task");
  }

  size_t k = 0;
  int64_t prompt_tokens = 0;
  for (const auto& m : messages) {
    if (m.is_object() && string_at(m, "role") == "assistant") ++k;
    prompt_tokens += message_tokens(m);
  }
  if (tools) prompt_tokens += llm::estimate_tokens(request["tools"].dump());
  ScriptedResponse answer;
  if (k < entry->responses.size()) {
    answer = entry->responses[k];
  } else if (!options_.final_message.empty()) {
    answer = {llm::ChatMessage::assistant(options_.final_message), "stop"};
  } else {
    answer = entry->responses.back();
  }
  const llm::ChatMessage& msg = answer.message;
  int64_t completion_tokens =
      llm::estimate_tokens(msg.content) + llm::estimate_tokens(msg.reasoning);
  for (const auto& call : msg.tool_calls) {
    completion_tokens += llm::estimate_tokens(call.name) + llm::estimate_tokens(call.arguments);
  }
  nlohmann::json usage = {{"prompt_tokens", prompt_tokens},
                          {"completion_tokens", completion_tokens},
                          {"total_tokens", prompt_tokens + completion_tokens}};
  std::string model = string_at(request, "model");
  if (model.empty()) model = options_.model;
  std::string id = "chatcmpl-replay-" + std::to_string(k);
  auto created = static_cast<int64_t>(std::time(nullptr));

  ReplayReply reply;
  reply.task = task;
  reply.index = k;
  reply.stream = bool_at(request, "stream");
  const WireShape shape = wire_shape(entry->server);
  if (!reply.stream) {
    nlohmann::json message = msg.to_json(shape.reasoning_key);
    nlohmann::json choice = {{"index", 0},
                             {"message", std::move(message)},
                             {"logprobs", nullptr},
                             {"finish_reason", answer.finish_reason}};
    add_choice_extras(choice, shape);
    reply.body = {{"id", id},       {"object", "chat.completion"},    {"created", created},
                  {"model", model}, {"choices", {std::move(choice)}}, {"usage", usage}};
    if (shape.timings) reply.body["timings"] = timings_of(usage);
    return reply;
  }
  const bool include_usage = request.contains("stream_options") &&
                             request["stream_options"].is_object() &&
                             bool_at(request["stream_options"], "include_usage");
  auto envelope = [&](nlohmann::json choices) {
    nlohmann::json c = {{"id", id},
                        {"object", "chat.completion.chunk"},
                        {"created", created},
                        {"model", model},
                        {"choices", std::move(choices)}};
    // OpenAI: with include_usage every chunk carries "usage": null but the last.
    if (include_usage && shape.usage_null_in_chunks) c["usage"] = nullptr;
    if (shape.timings) c["timings"] = timings_of(usage);
    return c;
  };
  auto chunk = [&](nlohmann::json delta, nlohmann::json finish) {
    nlohmann::json choice = {{"index", 0}, {"delta", std::move(delta)}, {"finish_reason", finish}};
    if (!finish.is_null()) add_choice_extras(choice, shape);
    reply.sse_data.push_back(dump_safe(envelope({std::move(choice)})));
  };
  const size_t n = options_.stream_chunk_chars;
  chunk({{"role", "assistant"},
         {"content", shape.role_content_null ? nlohmann::json(nullptr) : nlohmann::json("")}},
        nullptr);
  for (const auto& p : pieces(msg.reasoning, n)) chunk({{shape.reasoning_key, p}}, nullptr);
  for (const auto& p : pieces(msg.content, n)) chunk({{"content", p}}, nullptr);
  for (size_t i = 0; i < msg.tool_calls.size(); ++i) {
    const auto& call = msg.tool_calls[i];
    // SGLang-style streams number every call 0 and tell them apart by id
    // (the id repeated on each fragment).
    const size_t index = shape.one_index_for_all_calls ? 0 : i;
    std::vector<std::string> args = pieces(call.arguments, n);
    std::string first_args;
    if (shape.arguments_with_name && !args.empty()) {
      first_args = args.front();
      args.erase(args.begin());
    }
    chunk({{"tool_calls",
            {{{"index", index},
              {"id", call.id},
              {"type", "function"},
              {"function", {{"name", call.name}, {"arguments", first_args}}}}}}},
          nullptr);
    for (const auto& p : args) {
      nlohmann::json fragment = {{"index", index}, {"function", {{"arguments", p}}}};
      if (shape.id_on_every_fragment) fragment["id"] = call.id;
      chunk({{"tool_calls", {fragment}}}, nullptr);
    }
  }
  if (shape.usage_with_finish) {
    nlohmann::json choice = {
        {"index", 0}, {"delta", nlohmann::json::object()}, {"finish_reason", answer.finish_reason}};
    nlohmann::json last = envelope({std::move(choice)});
    last["usage"] = usage;
    reply.sse_data.push_back(dump_safe(last));
  } else {
    chunk(nlohmann::json::object(), answer.finish_reason);
  }
  if (include_usage && !shape.usage_with_finish) {
    nlohmann::json last = envelope(nlohmann::json::array());
    last["usage"] = usage;
    reply.sse_data.push_back(dump_safe(last));
  }
  reply.sse_data.push_back("[DONE]");
  return reply;
}

}  // namespace pf::replay
