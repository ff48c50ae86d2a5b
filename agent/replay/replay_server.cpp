#include "agent/replay/replay_server.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <atomic>

#include "agent/llm/chat_request.h"
#include "agent/replay/background_listener.h"

namespace pf::replay {
namespace {

constexpr size_t kMaxRequestBytes = 256u << 20;

std::string dump_safe(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

struct ReplayServer::Impl {
  ReplayScript script;
  ReplayServerOptions options;
  ReplayResponder responder;
  httplib::Server server;
  BackgroundListener listener;  // after server: stops before it is destroyed
  int port = 0;
  std::atomic<size_t> served{0};

  Impl(ReplayScript s, ReplayServerOptions o)
      : script(std::move(s)), options(std::move(o)), responder(script, options.replay) {}

  void handle_chat(const httplib::Request& req, httplib::Response& res) {
    ReplayReply reply = responder.chat_completion(req.body, req.get_header_value(llm::kTaskHeader));
    ++served;
    spdlog::debug("replay: task '{}' answer {} -> HTTP {}", reply.task, reply.index, reply.status);
    res.status = reply.status;
    if (reply.status != 200 || !reply.stream) {
      res.set_content(dump_safe(reply.body), "application/json");
      return;
    }
    auto events = std::make_shared<std::vector<std::string>>(std::move(reply.sse_data));
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider("text/event-stream",
                                     [events](size_t, httplib::DataSink& sink) {
                                       for (const auto& data : *events) {
                                         std::string frame = "data: " + data + "\n\n";
                                         if (!sink.write(frame.data(), frame.size())) return false;
                                       }
                                       sink.done();
                                       return true;
                                     });
  }

  void install_routes() {
    auto chat = [this](const httplib::Request& req, httplib::Response& res) {
      handle_chat(req, res);
    };
    auto models = [this](const httplib::Request&, httplib::Response& res) {
      ++served;
      res.set_content(dump_safe(responder.models()), "application/json");
    };
    server.Post("/v1/chat/completions", chat);
    server.Post("/chat/completions", chat);
    server.Get("/v1/models", models);
    server.Get("/models", models);
    server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
      if (!res.body.empty()) return;
      auto body = openai_error("replay server: " + req.method + " " + req.path + " -> HTTP " +
                                   std::to_string(res.status) +
                                   " (it serves POST /v1/chat/completions and GET /v1/models)",
                               "invalid_request_error", "not_found");
      res.set_content(dump_safe(body), "application/json");
    });
    server.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, const std::exception_ptr& ep) {
          std::string what = "unknown exception";
          try {
            std::rethrow_exception(ep);
          } catch (const std::exception& e) {
            what = e.what();
          } catch (...) {
          }
          res.status = 500;
          res.set_content(
              dump_safe(openai_error("replay server error: " + what, "server_error", "internal")),
              "application/json");
        });
  }
};

ReplayServer::ReplayServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ReplayServer::~ReplayServer() {
  stop();
}

Result<std::unique_ptr<ReplayServer>> ReplayServer::start(ReplayScript script,
                                                          ReplayServerOptions options) {
  auto impl = std::make_unique<Impl>(std::move(script), std::move(options));
  const auto& o = impl->options;
  size_t threads = static_cast<size_t>(std::max(o.threads, 1));
  impl->server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  impl->server.set_keep_alive_timeout(std::max(o.keep_alive_timeout_s, 1));
  impl->server.set_keep_alive_max_count(1000);
  impl->server.set_tcp_nodelay(true);  // headers and body are separate writes: no Nagle delay
  impl->server.set_payload_max_length(kMaxRequestBytes);
  impl->install_routes();
  PF_ASSIGN(impl->port, impl->listener.start(impl->server, o.host, o.port, "replay server: "));
  return std::unique_ptr<ReplayServer>(new ReplayServer(std::move(impl)));
}

void ReplayServer::stop() {
  if (impl_) impl_->listener.stop();
}

int ReplayServer::port() const {
  return impl_->port;
}

std::string ReplayServer::base_url() const {
  return http_url(impl_->options.host, impl_->port, "/v1");
}

const ReplayScript& ReplayServer::script() const {
  return impl_->script;
}

size_t ReplayServer::requests_served() const {
  return impl_->served.load();
}

}  // namespace pf::replay
