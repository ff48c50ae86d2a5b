#include "tests/integration/agent/fault_server.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace pf::testing {
namespace {

nlohmann::json completion_body(const nlohmann::json& message, const std::string& finish) {
  return {{"id", "chatcmpl-fault"},
          {"object", "chat.completion"},
          {"model", "fault-model"},
          {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", finish}}}},
          {"usage", {{"prompt_tokens", 11}, {"completion_tokens", 7}, {"total_tokens", 18}}}};
}

}  // namespace

FaultAction FaultAction::completion(const nlohmann::json& message, const std::string& finish) {
  FaultAction a;
  a.body = completion_body(message, finish).dump();
  return a;
}

FaultAction FaultAction::ok(const std::string& content) {
  return completion({{"role", "assistant"}, {"content", content}});
}

FaultAction FaultAction::status_with(int status, const std::string& body) {
  FaultAction a;
  a.status = status;
  a.body = body;
  return a;
}

FaultAction FaultAction::rate_limited(const std::string& retry_after) {
  FaultAction a =
      status_with(429, R"({"error":{"message":"Rate limit reached","type":"rate_limit"}})");
  if (!retry_after.empty()) a.headers.emplace_back("Retry-After", retry_after);
  return a;
}

FaultAction FaultAction::slow(double delay_s, const std::string& content) {
  FaultAction a = ok(content);
  a.delay_s = delay_s;
  return a;
}

FaultAction FaultAction::dropped_mid_body() {
  FaultAction a = ok(std::string(2000, 'x'));
  a.drop_mid_body = true;
  return a;
}

FaultAction FaultAction::truncated_json() {
  FaultAction a = ok("this body is cut");
  a.body.resize(a.body.size() / 2);  // complete HTTP message, incomplete JSON
  return a;
}

FaultAction FaultAction::invalid_json() {
  FaultAction a;
  a.body = "<html><body>upstream proxy page</body></html>";
  return a;
}

FaultAction FaultAction::empty_choices() {
  FaultAction a;
  a.body = R"({"id":"x","object":"chat.completion","choices":[]})";
  return a;
}

FaultAction FaultAction::invalid_tool_arguments() {
  return completion(
      {{"role", "assistant"},
       {"content", nullptr},
       {"tool_calls",
        {{{"id", "call_9"},
          {"type", "function"},
          {"function", {{"name", "write_file"}, {"arguments", "{\"path\": \"a.py\", "}}}}}}},
      "tool_calls");
}

FaultAction FaultAction::context_overflow_vllm() {
  return status_with(
      400,
      R"({"object":"error","message":"This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (36000 in the messages, 4000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400})");
}

FaultAction FaultAction::context_overflow_openai() {
  return status_with(
      400,
      R"({"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}})");
}

FaultAction FaultAction::unauthorized() {
  return status_with(
      401,
      R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}})");
}

FaultAction FaultAction::stream(const std::string& content, double stall_s) {
  FaultAction a;
  a.content_type = "text/event-stream";
  auto chunk = [](const nlohmann::json& delta, const nlohmann::json& finish) {
    return nlohmann::json{
        {"id", "s1"},
        {"object", "chat.completion.chunk"},
        {"model", "fault-model"},
        {"choices", {{{"index", 0}, {"delta", delta}, {"finish_reason", finish}}}}}
        .dump();
  };
  a.sse.push_back(chunk({{"role", "assistant"}}, nullptr));
  for (size_t i = 0; i < content.size(); i += 3) {
    a.sse.push_back(chunk({{"content", content.substr(i, 3)}}, nullptr));
  }
  a.stall_s = stall_s;
  if (stall_s == 0) {
    a.sse.push_back(chunk(nlohmann::json::object(), "stop"));
    a.sse.push_back("[DONE]");
  }
  return a;
}

FaultServer::FaultServer()
    : server_(std::make_unique<httplib::Server>()), default_(FaultAction::ok("default")) {
  server_->new_task_queue = [] { return new httplib::ThreadPool(16); };
  server_->set_keep_alive_timeout(1);
  server_->set_tcp_nodelay(true);
  auto handler = [this](const httplib::Request& req, httplib::Response& res) {
    RecordedRequest rec{req.path, {}, req.body, req.remote_port};
    for (const auto& [name, value] : req.headers) {
      std::string lower = name;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      rec.headers[lower] = value;
    }
    FaultAction a = next(rec);
    if (a.delay_s > 0 && !pause(a.delay_s)) return;
    res.status = a.status;
    for (const auto& [name, value] : a.headers) res.set_header(name, value);
    if (a.drop_mid_body) {
      auto body = std::make_shared<std::string>(a.body);
      res.set_content_provider(body->size(), a.content_type,
                               [body](size_t offset, size_t, httplib::DataSink& sink) {
                                 if (offset == 0) sink.write(body->data(), body->size() / 2);
                                 return false;  // abort: the connection closes mid-body
                               });
      return;
    }
    if (!a.sse.empty()) {
      auto events = std::make_shared<std::vector<std::string>>(a.sse);
      double stall = a.stall_s;
      res.set_chunked_content_provider(a.content_type,
                                       [this, events, stall](size_t, httplib::DataSink& sink) {
                                         for (const auto& e : *events) {
                                           std::string frame = "data: " + e + "\n\n";
                                           if (!sink.write(frame.data(), frame.size()))
                                             return false;
                                         }
                                         if (stall > 0) {
                                           pause(stall);
                                           return false;
                                         }
                                         sink.done();
                                         return true;
                                       });
      return;
    }
    res.set_content(a.body, a.content_type);
  };
  server_->Post("/v1/chat/completions", handler);
  server_->Get("/v1/models", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"object":"list","data":[{"id":"fault-model"},{"id":"other"}]})",
                    "application/json");
  });
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("fault server: cannot bind a loopback port");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

FaultServer::~FaultServer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stopping_cv_.notify_all();
  server_->stop();
  thread_.join();
}

void FaultServer::push(FaultAction action) {
  std::lock_guard lock(mutex_);
  queue_.push_back(std::move(action));
}

void FaultServer::set_default(FaultAction action) {
  std::lock_guard lock(mutex_);
  default_ = std::move(action);
}

std::string FaultServer::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/v1";
}

size_t FaultServer::request_count() const {
  std::lock_guard lock(mutex_);
  return requests_.size();
}

std::vector<RecordedRequest> FaultServer::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

FaultAction FaultServer::next(const RecordedRequest& request) {
  std::lock_guard lock(mutex_);
  requests_.push_back(request);
  if (queue_.empty()) return default_;
  FaultAction a = std::move(queue_.front());
  queue_.pop_front();
  return a;
}

bool FaultServer::pause(double seconds) {
  std::unique_lock lock(mutex_);
  return !stopping_cv_.wait_for(lock, std::chrono::duration<double>(seconds),
                                [this] { return stopping_; });
}

}  // namespace pf::testing
