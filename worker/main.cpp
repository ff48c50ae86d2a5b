// passforge-worker: started by the orchestrator's WorkerPool, never by hand.
// Parses its options, registers the request handlers and hands over to
// run_worker, which isolates the process before reading any request.
#include <cstdio>

#include "sandbox/worker/handler_table.h"
#include "sandbox/worker/run_worker.h"
#include "sandbox/worker/worker_config.h"

int main(int argc, char** argv) {
  auto config = pf::sandbox::parse_worker_args(argc, argv);
  if (!config.ok()) {
    std::fprintf(stderr, "passforge-worker: %s\n%s", config.error().message.c_str(),
                 pf::sandbox::worker_usage(argv[0]).c_str());
    return pf::sandbox::kWorkerExitUsage;
  }
  pf::sandbox::HandlerTable handlers;
  return pf::sandbox::run_worker(*config, handlers);
}
