#include "agent/llm/stream_assembler.h"

#include "agent/llm/http_error.h"

namespace pf::llm {
namespace {

void append_string(const nlohmann::json& obj, const char* key, std::string& target) {
  auto it = obj.find(key);
  if (it != obj.end() && it->is_string()) target += it->get_ref<const std::string&>();
}

}  // namespace

Status StreamAssembler::add(std::string_view data) {
  if (data == "[DONE]") {
    done_ = true;
    return ok_status();
  }
  auto j = nlohmann::json::parse(data, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return make_error(ErrorCode::parse_error,
                      "stream chunk " + std::to_string(chunks_ + 1) + " is not a JSON object");
  }
  ++chunks_;
  if (j.contains("error") && !j["error"].is_null()) {
    return make_error(ErrorCode::unavailable, error_message_from_body(std::string(data)));
  }
  if (id_.empty() && j.contains("id") && j["id"].is_string()) id_ = j["id"].get<std::string>();
  if (model_.empty() && j.contains("model") && j["model"].is_string()) {
    model_ = j["model"].get<std::string>();
  }
  if (j.contains("usage") && j["usage"].is_object()) usage_ = j["usage"];
  auto choices = j.find("choices");
  if (choices == j.end() || !choices->is_array()) return ok_status();
  for (const auto& choice : *choices) {
    if (!choice.is_object()) continue;
    if (choice.contains("index") && choice["index"] != 0) continue;
    if (choice.contains("finish_reason") && choice["finish_reason"].is_string()) {
      finish_reason_ = choice["finish_reason"].get<std::string>();
    }
    auto delta = choice.find("delta");
    if (delta == choice.end() || !delta->is_object()) continue;
    append_string(*delta, "content", message_.content);
    // Some servers send both names with the same text; take one per delta.
    auto rc = delta->find("reasoning_content");
    append_string(*delta, rc != delta->end() && rc->is_string() ? "reasoning_content" : "reasoning",
                  message_.reasoning);
    auto calls = delta->find("tool_calls");
    if (calls == delta->end() || !calls->is_array()) continue;
    for (const auto& call : *calls) {
      if (!call.is_object()) continue;
      int index = call.contains("index") && call["index"].is_number_integer()
                      ? call["index"].get<int>()
                      : static_cast<int>(open_at_.size());
      std::string id = call.contains("id") && call["id"].is_string() ? call["id"].get<std::string>()
                                                                     : std::string();
      auto open = open_at_.find(index);
      if (open == open_at_.end()) {
        open = open_at_.emplace(index, 0).first;
      } else if (const ToolCall& current = tool_calls_[{index, open->second}];
                 !id.empty() && !current.id.empty() && id != current.id) {
        ++open->second;
      }
      ToolCall& target = tool_calls_[{index, open->second}];
      if (!id.empty()) target.id = id;
      auto fn = call.find("function");
      if (fn == call.end() || !fn->is_object()) continue;
      auto name = fn->find("name");
      if (name != fn->end() && name->is_string() &&
          name->get_ref<const std::string&>() != target.name) {
        target.name += name->get_ref<const std::string&>();
      }
      append_string(*fn, "arguments", target.arguments);
    }
  }
  return ok_status();
}

Result<ChatResponse> StreamAssembler::finish() const {
  if (!complete()) {
    return make_error(ErrorCode::parse_error,
                      "stream ended early (no [DONE] and no finish_reason after " +
                          std::to_string(chunks_) + " chunks)");
  }
  ChatResponse r;
  r.message = message_;
  r.message.role = "assistant";
  for (const auto& [key, call] : tool_calls_) {
    ToolCall c = call;
    if (c.id.empty()) {
      c.id = "call_" + std::to_string(key.first) +
             (key.second ? "_" + std::to_string(key.second) : "");
    }
    r.message.tool_calls.push_back(std::move(c));
  }
  r.finish_reason = finish_reason_;
  r.id = id_;
  r.model = model_;
  if (usage_.is_object()) {
    r.usage = Usage::from_json(usage_);
  } else {
    r.usage.estimated = true;
  }
  return r;
}

nlohmann::json StreamAssembler::as_completion_json() const {
  auto r = finish();
  nlohmann::json message = r.ok() ? r->message.to_json() : message_.to_json();
  nlohmann::json j = {
      {"id", id_},
      {"object", "chat.completion"},
      {"model", model_},
      {"choices",
       {{{"index", 0},
         {"message", std::move(message)},
         {"finish_reason",
          finish_reason_.empty() ? nlohmann::json(nullptr) : nlohmann::json(finish_reason_)}}}}};
  if (usage_.is_object()) j["usage"] = usage_;
  return j;
}

}  // namespace pf::llm
