// The replay responder behind a deliberately slow loopback server: every chat
// completion waits `delay_s` first, so a test can kill or interrupt a real
// `passforge run` in the middle of its episodes.
#pragma once

#include <memory>
#include <string>
#include <thread>

#include "agent/replay/replay_responder.h"

namespace httplib {
class Server;
}

namespace pf::testing {

class SlowReplayServer {
 public:
  SlowReplayServer(const std::string& script_jsonl, double delay_s);
  ~SlowReplayServer();
  std::string base_url() const;

 private:
  replay::ReplayScript script_;
  std::unique_ptr<replay::ReplayResponder> responder_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  double delay_s_;
};

}  // namespace pf::testing
