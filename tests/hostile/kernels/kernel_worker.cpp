// pf_kernel_test_worker: passforge-worker's `compile` plus the test-only
// `run_kernel` request, under the same isolation (hostile kernel runner).
#include <cstdio>
#include <memory>

#include "sandbox/worker/run_worker.h"
#include "sandbox/worker/worker_config.h"
#include "tests/hostile/kernels/run_kernel_handler.h"
#include "worker/compile_handler.h"

int main(int argc, char** argv) {
  auto config = pf::sandbox::parse_worker_args(argc, argv);
  if (!config.ok()) {
    std::fprintf(stderr, "pf_kernel_test_worker: %s\n", config.error().message.c_str());
    return pf::sandbox::kWorkerExitUsage;
  }
  pf::sandbox::HandlerTable handlers;
  auto service = std::make_shared<pf::worker::CompileService>(
      pf::worker::CompileServiceOptions{config->isolation.cache_dir});
  if (auto dirs = service->preload(); dirs.ok()) {
    for (const auto& dir : *dirs) config->isolation.extra_read_paths.push_back(dir);
  }
  pf::worker::open_device_before_confinement(config->isolation, service);
  pf::worker::register_compile_handler(handlers, service);
  pf::test::register_run_kernel_handler(handlers, service);
  return pf::sandbox::run_worker(*config, handlers);
}
