// `passforge serve-replay`: an OpenAI-compatible endpoint that answers from a
// replay script (docs/replay-script.md) until SIGINT or SIGTERM. It prints the
// base URL on its first stdout line, so scripts can start it with --port 0.
#include "cli/cmd_serve_replay.h"

#include <iostream>
#include <memory>

#include "agent/replay/replay_server.h"
#include "cli/exit_codes.h"
#include "cli/signal_watch.h"

namespace pf::cli {
namespace {

struct ServeReplayOptions {
  std::string script;
  replay::ReplayServerOptions server;
};

int run_serve_replay(const ServeReplayOptions& options) {
  auto script = replay::ReplayScript::load(options.script);
  if (!script.ok()) {
    std::cerr << "passforge serve-replay: " << script.error().message << "\n";
    return kExitUsage;
  }
  size_t entries = script->size();
  size_t tasks = script->task_ids().size();

  // Before the server threads exist: they inherit the blocked stop signals.
  const StopSignals stop_signals;

  auto server = replay::ReplayServer::start(std::move(script).value(), options.server);
  if (!server.ok()) {
    std::cerr << "passforge serve-replay: " << server.error().message << "\n";
    return kExitUsage;
  }
  std::cout << "passforge serve-replay: serving " << (*server)->base_url() << " (" << entries
            << " scripted entries, " << tasks << " tasks, from " << options.script
            << "); replaying recorded answers, not asking a model; Ctrl-C stops" << std::endl;

  stop_signals.wait();
  (*server)->stop();
  std::cout << "passforge serve-replay: stopped after " << (*server)->requests_served()
            << " requests" << std::endl;
  return kExitOk;
}

}  // namespace

void add_serve_replay_command(CLI::App& app, CommandContext& ctx) {
  auto options = std::make_shared<ServeReplayOptions>();
  options->server.port = 8000;
  auto* cmd = app.add_subcommand(
      "serve-replay",
      "serve an OpenAI-compatible endpoint that answers from a replay script of recorded "
      "assistant messages (docs/replay-script.md)");
  cmd->add_option("--script", options->script, "the replay script (JSONL)")->required();
  cmd->add_option("--host", options->server.host, "address to listen on")->capture_default_str();
  cmd->add_option("--port", options->server.port, "port (0: any free port, printed at start)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--model", options->server.replay.model, "model id reported by /v1/models")
      ->capture_default_str();
  cmd->add_option("--final-message", options->server.replay.final_message,
                  "answer past the end of a script entry (default: repeat its last response)");
  cmd->add_option("--threads", options->server.threads, "connections served at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  cmd->callback([options, &ctx] { ctx.exit_code = run_serve_replay(*options); });
}

}  // namespace pf::cli
