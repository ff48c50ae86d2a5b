#include "tests/integration/agent/closing_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

namespace pf::testing {
namespace {

// Reads one request (headers and a Content-Length body); false on EOF.
bool read_request(int fd, std::string& pending) {
  char buf[4096];
  for (;;) {
    auto end = pending.find("\r\n\r\n");
    if (end != std::string::npos) {
      size_t length = 0;
      auto at = pending.find("Content-Length:");
      if (at == std::string::npos) at = pending.find("content-length:");
      if (at != std::string::npos && at < end)
        length = std::strtoul(&pending[at + 15], nullptr, 10);
      if (pending.size() >= end + 4 + length) {
        pending.erase(0, end + 4 + length);
        return true;
      }
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 5000) <= 0) return false;
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return false;
    pending.append(buf, static_cast<size_t>(n));
  }
}

}  // namespace

ClosingServer::ClosingServer(std::string body) : body_(std::move(body)) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
      ::listen(listen_fd_, 8) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    throw std::runtime_error("ClosingServer: cannot listen on 127.0.0.1");
  }
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { serve(); });
}

ClosingServer::~ClosingServer() {
  stopping_ = true;
  thread_.join();
  ::close(listen_fd_);
}

std::string ClosingServer::base_url() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/v1";
}

void ClosingServer::serve() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    serve_connection(fd);
  }
}

void ClosingServer::serve_connection(int fd) {
  std::string pending;
  if (read_request(fd, pending)) {
    ++requests_;
    std::string reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                        std::to_string(body_.size()) + "\r\nConnection: keep-alive\r\n\r\n" + body_;
    if (::write(fd, reply.data(), reply.size()) == static_cast<ssize_t>(reply.size()) &&
        read_request(fd, pending)) {
      ++requests_;  // the second request on this connection: dropped unanswered
    }
  }
  ::close(fd);
}

}  // namespace pf::testing
