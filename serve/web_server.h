// `passforge serve`'s HTTP server (cpp-httplib): the pages (one HTML shell,
// routed in the browser), their assets, the JSON API under /api/ and the SVG
// charts, all read-only over the run stores of a RunCatalog. Every request
// passes the AccessGuard first. Serves on a background thread from start()
// until stop() or destruction (RAII). Thread-safe.
#pragma once

#include <memory>
#include <string>

#include "common/result.h"
#include "serve/run_catalog.h"

namespace pf::serve {

struct WebServerOptions {
  std::string host = "127.0.0.1";
  int port = 8765;    // 0: an ephemeral port (see port())
  std::string token;  // required off the loopback (check_bind)
  int threads = 8;
};

class WebServer {
 public:
  //! Binds (the port is usable when this returns) and starts serving.
  //! Errors: check_bind's, an address that cannot be bound.
  static Result<std::unique_ptr<WebServer>> start(RunCatalog catalog, WebServerOptions options);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  //! Stops accepting, finishes requests in flight, joins the thread; idempotent.
  void stop();
  int port() const;
  //! "http://<host>:<port>/".
  std::string url() const;

 private:
  struct Impl;
  explicit WebServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pf::serve
