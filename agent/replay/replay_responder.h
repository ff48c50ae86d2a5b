// What the replay server answers, without the sockets: request JSON in,
// status and body (or SSE events) out. Stateless: the k-th scripted response
// is chosen by k = the number of assistant messages already in the request.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "agent/replay/replay_script.h"

namespace pf::replay {

struct ReplayOptions {
  std::string model = "passforge-replay";  // reported by /v1/models and when the request names none
  //! Past the end of a script entry: answer with this text (chat message,
  //! finish_reason stop). Empty: repeat the entry's last response.
  std::string final_message;
  size_t stream_chunk_chars = 24;  // text per SSE delta (split at UTF-8 boundaries)
};

struct ReplayReply {
  int status = 200;
  nlohmann::json body;  // the completion, or an OpenAI-style {"error": ...}
  bool stream = false;
  std::vector<std::string> sse_data;  // streaming: `data:` payloads, the last is "[DONE]"
  std::string task;                   // for logs ("" when unknown)
  size_t index = 0;                   // the k chosen
};

//! Thread-safe (reads the script only).
class ReplayResponder {
 public:
  ReplayResponder(const ReplayScript& script, ReplayOptions options);

  //! POST /v1/chat/completions. `task_header` is the X-Passforge-Task value
  //! ("" when absent); otherwise the task comes from a "Task id: <id>" line in
  //! the first user message. Errors: 400 (bad JSON, no task id), 404 (task or
  //! mode not scripted; the message lists the known tasks).
  ReplayReply chat_completion(std::string_view body, const std::string& task_header) const;

  //! GET /v1/models.
  nlohmann::json models() const;

 private:
  const ReplayScript& script_;
  ReplayOptions options_;
};

//! {"error": {"message", "type", "param": null, "code"}} as OpenAI sends it.
nlohmann::json openai_error(const std::string& message, const std::string& type,
                            const std::string& code);

}  // namespace pf::replay
