// An OpenAI-compatible HTTP server answering from a replay script:
// POST /v1/chat/completions (and /chat/completions), GET /v1/models (and
// /models). Used by `passforge serve-replay`, by `passforge run` when no
// endpoint is configured, and by the integration tests.
#pragma once

#include <memory>
#include <string>

#include "agent/replay/replay_responder.h"
#include "agent/replay/replay_script.h"
#include "common/result.h"

namespace pf::replay {

struct ReplayServerOptions {
  std::string host = "127.0.0.1";
  int port = 0;  // 0: an ephemeral port (see port())
  //! Connections served at once; an idle keep-alive connection holds one
  //! until keep_alive_timeout_s passes.
  int threads = 64;
  int keep_alive_timeout_s = 2;
  ReplayOptions replay;
};

//! Serves on a background thread from start() until stop() or destruction
//! (RAII). Thread-safe.
class ReplayServer {
 public:
  //! Binds (the port is usable when this returns) and starts serving.
  static Result<std::unique_ptr<ReplayServer>> start(ReplayScript script,
                                                     ReplayServerOptions options);
  ~ReplayServer();
  ReplayServer(const ReplayServer&) = delete;
  ReplayServer& operator=(const ReplayServer&) = delete;

  //! Stops accepting, finishes requests in flight, joins the thread; idempotent.
  void stop();

  int port() const;
  //! "http://<host>:<port>/v1", the base_url for LlmOptions.
  std::string base_url() const;
  const ReplayScript& script() const;
  //! Chat completions and model listings answered so far.
  size_t requests_served() const;

 private:
  struct Impl;
  explicit ReplayServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pf::replay
