// Serving an httplib server on a thread of its own, as the replay endpoint and
// `passforge serve` both do: bind (port 0: any free port) with SO_REUSEADDR
// only, since httplib's default SO_REUSEPORT would let a second server share a
// busy port silently; run the accept loop; stop and join.
#pragma once

#include <atomic>
#include <string>
#include <string_view>
#include <thread>

#include "common/result.h"

namespace httplib {
class Server;
}

namespace pf {

class BackgroundListener {
 public:
  BackgroundListener() = default;
  ~BackgroundListener() { stop(); }
  BackgroundListener(const BackgroundListener&) = delete;
  BackgroundListener& operator=(const BackgroundListener&) = delete;

  //! Binds `server` (routes and options set) to host:port and serves it until
  //! stop(); returns the bound port once stop() can end the loop. `what`
  //! prefixes the error ("replay server: ").
  Result<int> start(httplib::Server& server, const std::string& host, int port,
                    const std::string& what);
  //! Idempotent; joins the serving thread.
  void stop();

 private:
  httplib::Server* server_ = nullptr;
  std::thread thread_;
  std::atomic<bool> done_{false};
};

//! "http://host:port<path>", an IPv6 host in brackets.
std::string http_url(const std::string& host, int port, std::string_view path);

}  // namespace pf
