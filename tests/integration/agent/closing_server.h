// A raw HTTP/1.1 server on 127.0.0.1 that answers the first request of every
// connection (keep-alive) and closes the connection, without a byte of
// response, when a second request arrives on it: what a server that dropped
// an idle keep-alive connection looks like to a client reusing it. libcurl
// then sends the request again on a new connection by itself.
#pragma once

#include <atomic>
#include <string>
#include <thread>

namespace pf::testing {

class ClosingServer {
 public:
  //! Answers with `body` (application/json).
  explicit ClosingServer(std::string body);
  ~ClosingServer();
  ClosingServer(const ClosingServer&) = delete;
  ClosingServer& operator=(const ClosingServer&) = delete;

  std::string base_url() const;
  //! Requests received, the dropped ones included.
  int requests() const { return requests_.load(); }

 private:
  void serve();
  void serve_connection(int fd);

  std::string body_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

}  // namespace pf::testing
