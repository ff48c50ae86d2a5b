#include "tests/integration/agent/slow_replay_server.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>

namespace pf::testing {

SlowReplayServer::SlowReplayServer(const std::string& script_jsonl, double delay_s)
    : server_(std::make_unique<httplib::Server>()), delay_s_(delay_s) {
  auto script = replay::ReplayScript::parse(script_jsonl, "slow.jsonl");
  EXPECT_TRUE(script.ok()) << script.error().message;
  script_ = std::move(script).value();
  responder_ = std::make_unique<replay::ReplayResponder>(script_, replay::ReplayOptions{});
  server_->new_task_queue = [] { return new httplib::ThreadPool(32); };
  server_->set_keep_alive_timeout(1);
  server_->Post("/v1/chat/completions", [this](const httplib::Request& req,
                                               httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::duration<double>(delay_s_));
    auto reply = responder_->chat_completion(req.body, req.get_header_value("X-Passforge-Task"));
    res.status = reply.status;
    res.set_content(reply.body.dump(), "application/json");
  });
  port_ = server_->bind_to_any_port("127.0.0.1");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

SlowReplayServer::~SlowReplayServer() {
  server_->stop();
  thread_.join();
}

std::string SlowReplayServer::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/v1";
}

}  // namespace pf::testing
