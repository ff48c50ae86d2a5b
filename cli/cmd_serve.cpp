// `passforge serve [RUN_DIRS...] [--runs DIR] [--host H] [--port P] [--token T]`:
// the runs, their tasks and episodes, and experiments in the browser
// (docs/serve.md), read-only, until SIGINT or SIGTERM. The first stdout line
// names the URL, so scripts can start it with --port 0.
#include "cli/cmd_serve.h"

#include <iostream>
#include <memory>

#include "cli/exit_codes.h"
#include "cli/signal_watch.h"
#include "serve/web_server.h"

namespace pf::cli {
namespace {

struct ServeArgs {
  std::vector<std::string> run_dirs;
  std::string runs_root;
  serve::WebServerOptions server;
};

int run_serve(const ServeArgs& a) {
  serve::CatalogOptions catalog_options;
  for (const auto& d : a.run_dirs) catalog_options.run_dirs.emplace_back(d);
  if (!a.runs_root.empty()) catalog_options.runs_roots.emplace_back(a.runs_root);
  if (a.run_dirs.empty() && a.runs_root.empty()) catalog_options.runs_roots.emplace_back("runs");
  auto catalog = serve::RunCatalog::create(std::move(catalog_options));
  if (!catalog.ok()) {
    std::cerr << "passforge serve: " << catalog.error().message << "\n";
    return kExitUsage;
  }
  size_t stores = catalog->list().size();

  // Before the server threads exist: they inherit the blocked stop signals.
  const StopSignals stop_signals;
  auto server = serve::WebServer::start(std::move(catalog).value(), a.server);
  if (!server.ok()) {
    std::cerr << "passforge serve: " << server.error().message << "\n";
    return kExitUsage;
  }
  std::cout << "passforge serve: " << (*server)->url() << " (" << stores
            << " run stores now, read-only" << (a.server.token.empty() ? "" : ", token required")
            << "); Ctrl-C stops" << std::endl;
  stop_signals.wait();
  (*server)->stop();
  std::cout << "passforge serve: stopped" << std::endl;
  return kExitOk;
}

}  // namespace

void add_serve_command(CLI::App& app, CommandContext& ctx) {
  auto args = std::make_shared<ServeArgs>();
  auto* cmd = app.add_subcommand(
      "serve", "show runs, their tasks and episodes, and experiments in the browser (read-only)");
  cmd->add_option("run_dirs", args->run_dirs,
                  "run directories (or passforge.db files) to show; a directory without a store "
                  "of its own is read like --runs (e.g. runs/)");
  cmd->add_option("--runs", args->runs_root,
                  "also show every run store directly under this directory, new ones as they "
                  "appear (default without RUN_DIRS: runs)");
  cmd->add_option("--host", args->server.host,
                  "address to listen on (not a loopback address: --token is required)")
      ->capture_default_str();
  cmd->add_option("--port", args->server.port, "port (0: any free port, printed at start)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--token", args->server.token,
                  "require this token on every request (>= 16 of [A-Za-z0-9._~-]; browsers: "
                  "open the printed URL with ?token=...)");
  cmd->callback([&ctx, args] { ctx.exit_code = run_serve(*args); });
}

}  // namespace pf::cli
