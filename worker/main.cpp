// passforge-worker: started by the orchestrator's WorkerPool, never by hand.
// Parses its options, registers the request handlers and hands over to
// run_worker, which isolates the process before reading any request.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "sandbox/cuda/cublas.h"
#include "sandbox/cuda/cudnn.h"
#include "sandbox/worker/handler_table.h"
#include "sandbox/worker/run_worker.h"
#include "sandbox/worker/worker_config.h"
#include "worker/compile_handler.h"
#include "worker/pass_handler.h"

int main(int argc, char** argv) {
  auto config = pf::sandbox::parse_worker_args(argc, argv);
  if (!config.ok()) {
    std::fprintf(stderr, "passforge-worker: %s\n%s", config.error().message.c_str(),
                 pf::sandbox::worker_usage(argv[0]).c_str());
    return pf::sandbox::kWorkerExitUsage;
  }
  pf::sandbox::HandlerTable handlers;
  // NVRTC is opened before isolation; its directory stays readable for the
  // builtins library it loads at the first compile. Without NVRTC, `compile`
  // answers with the reason.
  pf::worker::CompileServiceOptions compile_options;
  compile_options.cache_dir = config->isolation.cache_dir;
  compile_options.worker_limits = config->limits;
  auto compile = std::make_shared<pf::worker::CompileService>(std::move(compile_options));
  if (auto dirs = compile->preload(); dirs.ok()) {
    for (const auto& dir : *dirs) config->isolation.extra_read_paths.push_back(dir);
  }
  // A GPU worker's eager baseline opens cuBLAS at its first matmul and cuDNN
  // at its first convolution, after isolation: load them now and keep their
  // directories readable (cuDNN opens its engine libraries lazily).
  std::shared_ptr<const pf::cuda::CublasLibrary> cublas;
  std::shared_ptr<const pf::cuda::CudnnLibrary> cudnn;
  const char* gpus = std::getenv("CUDA_VISIBLE_DEVICES");
  bool gpu_worker = gpus != nullptr && *gpus != '\0';
  if (gpu_worker) {
    if (auto lib = pf::cuda::CublasLibrary::load(); lib.ok()) {
      cublas = *lib;
      for (const auto& path : {cublas->cublas_path(), cublas->cublaslt_path()}) {
        std::filesystem::path dir = std::filesystem::path(path).parent_path();
        if (!dir.empty()) config->isolation.extra_read_paths.push_back(dir);
      }
    }
    if (auto lib = pf::cuda::CudnnLibrary::load(); lib.ok()) {
      cudnn = *lib;
      std::filesystem::path dir = std::filesystem::path(cudnn->path()).parent_path();
      if (!dir.empty()) config->isolation.extra_read_paths.push_back(dir);
    }
  }
  pf::worker::open_device_before_confinement(config->isolation, compile);
  pf::worker::register_compile_handler(handlers, compile);
  pf::worker::register_pass_handler(
      handlers, compile, pf::worker::PassServiceOptions{{}, config->isolation.cache_dir});
  int status = pf::sandbox::run_worker(*config, handlers);
  compile->log_summary();
  return status;
}
