// A scripted OpenAI-compatible server for tests: each POST /v1/chat/completions
// takes the next FaultAction from a queue (or the default) and misbehaves as
// told: error statuses with Retry-After, slow answers, dropped connections,
// broken bodies, stalled streams. Every request is recorded.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace httplib {
class Server;
}

namespace pf::testing {

struct FaultAction {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
  double delay_s = 0;            // before answering
  bool drop_mid_body = false;    // announce the full length, send half, close the connection
  std::vector<std::string> sse;  // non-empty: a chunked event stream of these `data:` payloads
  double stall_s = 0;            // streaming: pause this long after the events, then drop

  //! A normal completion whose message is `message` (OpenAI shape).
  static FaultAction completion(const nlohmann::json& message, const std::string& finish = "stop");
  static FaultAction ok(const std::string& content);
  static FaultAction status_with(int status, const std::string& body);
  static FaultAction rate_limited(const std::string& retry_after);
  static FaultAction slow(double delay_s, const std::string& content);
  static FaultAction dropped_mid_body();
  static FaultAction truncated_json();
  static FaultAction invalid_json();
  static FaultAction empty_choices();
  static FaultAction invalid_tool_arguments();
  static FaultAction context_overflow_vllm();
  static FaultAction context_overflow_openai();
  static FaultAction unauthorized();
  //! A streamed answer of `content`, optionally stalling before its end.
  static FaultAction stream(const std::string& content, double stall_s = 0);
};

struct RecordedRequest {
  std::string path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  int remote_port = 0;  // the client's port: equal ports mean a reused connection
};

//! Listens on 127.0.0.1 on an ephemeral port from construction to destruction.
class FaultServer {
 public:
  FaultServer();
  ~FaultServer();

  void push(FaultAction action);
  void set_default(FaultAction action);
  std::string base_url() const;
  size_t request_count() const;
  std::vector<RecordedRequest> requests() const;

 private:
  FaultAction next(const RecordedRequest& request);
  //! Sleeps unless the server is stopping; false when it is.
  bool pause(double seconds);

  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable stopping_cv_;
  bool stopping_ = false;
  std::deque<FaultAction> queue_;
  FaultAction default_;
  std::vector<RecordedRequest> requests_;
};

}  // namespace pf::testing
