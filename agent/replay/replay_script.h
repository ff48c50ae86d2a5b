// A replay script: recorded assistant messages per (task, mode), one JSON
// object per line (format: docs/replay-script.md).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "agent/llm/chat_message.h"
#include "common/result.h"

namespace pf::replay {

struct ScriptedResponse {
  llm::ChatMessage message;   // role assistant
  std::string finish_reason;  // as written, else "tool_calls" / "stop"
};

//! The wire shape a script entry is answered in: the response shapes of
//! the OpenAI API and of the servers people put models behind
//! (docs/replay-script.md "Server shapes"), so the client meets them in CI.
enum class ServerShape { openai, vllm, sglang, llamacpp };

const char* server_shape_name(ServerShape shape);

struct ScriptEntry {
  std::string task;
  std::string mode;   // "tools" | "chat"
  std::string model;  // "" = any model; else only requests naming this model
  ServerShape server = ServerShape::openai;
  std::vector<ScriptedResponse> responses;
  int line = 0;  // where it was defined, for messages
};

//! Immutable after loading; safe to read from many threads.
class ReplayScript {
 public:
  static Result<ReplayScript> load(const std::filesystem::path& path);
  //! `source` names the text in errors ("<source>:<line>: ...").
  static Result<ReplayScript> parse(std::string_view text, const std::string& source);

  //! The entry for (task, mode, model), else the model-less entry for (task,
  //! mode): a script can answer one model differently (e.g. the model a
  //! self-improvement round trained) and every other model alike.
  const ScriptEntry* find(const std::string& task, const std::string& mode,
                          const std::string& model = "") const;
  //! Sorted, unique task ids.
  std::vector<std::string> task_ids() const;
  //! Modes scripted for a task ("" list when the task is unknown).
  std::vector<std::string> modes_of(const std::string& task) const;
  size_t size() const { return entries_.size(); }

 private:
  std::map<std::tuple<std::string, std::string, std::string>, ScriptEntry> entries_;
};

}  // namespace pf::replay
