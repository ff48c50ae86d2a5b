#include "agent/replay/replay_script.h"

#include <nlohmann/json.hpp>
#include <set>

#include "common/fs.h"
#include "common/strings.h"

namespace pf::replay {
namespace {

Result<ScriptedResponse> parse_response(const nlohmann::json& j, const std::string& mode,
                                        size_t index) {
  std::string where = "responses[" + std::to_string(index) + "]";
  if (!j.is_object()) return make_error(ErrorCode::parse_error, where + " is not an object");
  if (j.contains("content") && !j["content"].is_string() && !j["content"].is_null()) {
    return make_error(ErrorCode::parse_error, where + ".content must be a string or null");
  }
  for (const char* key : {"reasoning_content", "reasoning", "finish_reason"}) {
    if (j.contains(key) && !j[key].is_string()) {
      return make_error(ErrorCode::parse_error, where + "." + key + " must be a string");
    }
  }
  auto message = llm::ChatMessage::from_json(j);
  if (!message.ok())
    return make_error(ErrorCode::parse_error, where + ": " + message.error().message);
  ScriptedResponse r{std::move(message).value(), j.value("finish_reason", "")};
  r.message.role = "assistant";
  if (mode == "chat" && !r.message.tool_calls.empty()) {
    return make_error(ErrorCode::parse_error,
                      where + " has tool_calls, but chat mode answers are plain text");
  }
  if (r.message.content.empty() && r.message.tool_calls.empty()) {
    return make_error(ErrorCode::parse_error, where + " has neither content nor tool_calls");
  }
  for (size_t k = 0; k < r.message.tool_calls.size(); ++k) {
    // Ids must be unique within a message; generated ones are per message and call.
    auto& call = r.message.tool_calls[k];
    if (!j["tool_calls"][k].contains("id")) {
      call.id = "call_" + std::to_string(index) + "_" + std::to_string(k);
    }
  }
  if (r.finish_reason.empty())
    r.finish_reason = r.message.tool_calls.empty() ? "stop" : "tool_calls";
  return r;
}

Result<ScriptEntry> parse_line(std::string_view line) {
  auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return make_error(ErrorCode::parse_error, "not valid JSON");
  if (!j.is_object()) return make_error(ErrorCode::parse_error, "expected a JSON object");
  for (const auto& [key, value] : j.items()) {
    if (key != "task" && key != "mode" && key != "model" && key != "server" && key != "responses") {
      return make_error(
          ErrorCode::parse_error,
          "unknown key '" + key + "' (expected task, mode, model, server, responses)");
    }
  }
  ScriptEntry e;
  if (!j.contains("task") || !j["task"].is_string() || j["task"].get<std::string>().empty()) {
    return make_error(ErrorCode::parse_error, "\"task\" must be a non-empty string");
  }
  e.task = j["task"].get<std::string>();
  e.mode = j.contains("mode") && j["mode"].is_string() ? j["mode"].get<std::string>() : "";
  if (e.mode != "tools" && e.mode != "chat") {
    return make_error(ErrorCode::parse_error, "\"mode\" must be \"tools\" or \"chat\"");
  }
  if (j.contains("model")) {
    if (!j["model"].is_string() || j["model"].get<std::string>().empty()) {
      return make_error(ErrorCode::parse_error, "\"model\" must be a non-empty string");
    }
    e.model = j["model"].get<std::string>();
  }
  if (j.contains("server")) {
    std::string name = j["server"].is_string() ? j["server"].get<std::string>() : "";
    bool known = false;
    for (auto shape :
         {ServerShape::openai, ServerShape::vllm, ServerShape::sglang, ServerShape::llamacpp}) {
      if (name == server_shape_name(shape)) {
        e.server = shape;
        known = true;
      }
    }
    if (!known) {
      return make_error(ErrorCode::parse_error,
                        "\"server\" must be \"openai\", \"vllm\", \"sglang\" or \"llamacpp\"");
    }
  }
  if (!j.contains("responses") || !j["responses"].is_array() || j["responses"].empty()) {
    return make_error(ErrorCode::parse_error, "\"responses\" must be a non-empty array");
  }
  for (size_t i = 0; i < j["responses"].size(); ++i) {
    PF_ASSIGN(auto r, parse_response(j["responses"][i], e.mode, i));
    e.responses.push_back(std::move(r));
  }
  return e;
}

}  // namespace

const char* server_shape_name(ServerShape shape) {
  switch (shape) {
    case ServerShape::openai:
      return "openai";
    case ServerShape::vllm:
      return "vllm";
    case ServerShape::sglang:
      return "sglang";
    case ServerShape::llamacpp:
      return "llamacpp";
  }
  return "openai";
}

Result<ReplayScript> ReplayScript::load(const std::filesystem::path& path) {
  auto text = read_file(path);
  if (!text.ok()) return text.error().with_context("replay script");
  return parse(*text, path.string());
}

Result<ReplayScript> ReplayScript::parse(std::string_view text, const std::string& source) {
  ReplayScript script;
  int line_no = 0;
  for (const auto& raw : split(text, '\n')) {
    ++line_no;
    std::string_view line = trim(raw);
    if (line.empty()) continue;
    auto entry = parse_line(line);
    if (!entry.ok()) {
      return make_error(ErrorCode::parse_error,
                        source + ":" + std::to_string(line_no) + ": " + entry.error().message);
    }
    entry->line = line_no;
    auto key = std::make_tuple(entry->task, entry->mode, entry->model);
    if (auto it = script.entries_.find(key); it != script.entries_.end()) {
      return make_error(ErrorCode::parse_error,
                        source + ":" + std::to_string(line_no) + ": task '" + entry->task +
                            "' in mode " + entry->mode +
                            (entry->model.empty() ? "" : " for model " + entry->model) +
                            " is already scripted on line " + std::to_string(it->second.line));
    }
    script.entries_.emplace(std::move(key), std::move(entry).value());
  }
  if (script.entries_.empty()) {
    return make_error(ErrorCode::parse_error, source + ": the script has no entries");
  }
  return script;
}

const ScriptEntry* ReplayScript::find(const std::string& task, const std::string& mode,
                                      const std::string& model) const {
  auto it = entries_.find({task, mode, model});
  if (it == entries_.end() && !model.empty()) it = entries_.find({task, mode, std::string()});
  return it == entries_.end() ? nullptr : &it->second;
}

std::vector<std::string> ReplayScript::task_ids() const {
  std::set<std::string> ids;
  for (const auto& [key, entry] : entries_) ids.insert(std::get<0>(key));
  return {ids.begin(), ids.end()};
}

std::vector<std::string> ReplayScript::modes_of(const std::string& task) const {
  std::set<std::string> modes;
  for (const auto& [key, entry] : entries_) {
    if (std::get<0>(key) == task) modes.insert(std::get<1>(key));
  }
  return {modes.begin(), modes.end()};
}

}  // namespace pf::replay
