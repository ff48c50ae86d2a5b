#include "agent/replay/background_listener.h"

#include <httplib.h>
#include <sys/socket.h>

#include <chrono>

namespace pf {

Result<int> BackgroundListener::start(httplib::Server& server, const std::string& host, int port,
                                      const std::string& what) {
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  int bound = -1;
  if (port == 0) {
    bound = server.bind_to_any_port(host);
  } else if (server.bind_to_port(host, port)) {
    bound = port;
  }
  if (bound <= 0) {
    return make_error(ErrorCode::unavailable, what + "cannot listen on " + host + ":" +
                                                  std::to_string(port) +
                                                  " (address in use, or not a local address?)");
  }
  server_ = &server;
  thread_ = std::thread([this] {
    server_->listen_after_bind();
    done_ = true;
  });
  // httplib's stop() is a no-op until the accept loop runs; wait for it so an
  // immediate stop() cannot leave the thread serving forever.
  while (!server.is_running() && !done_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return bound;
}

void BackgroundListener::stop() {
  if (server_ == nullptr) return;
  server_->stop();
  if (thread_.joinable()) thread_.join();
  server_ = nullptr;
}

std::string http_url(const std::string& host, int port, std::string_view path) {
  std::string shown = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return "http://" + shown + ":" + std::to_string(port) + std::string(path);
}

}  // namespace pf
