#include "evaluator/gpu/kernel_library.h"

#include <spdlog/spdlog.h>

#include "evaluator/gpu/kernel_program.h"

namespace pf::gpu {

struct KernelLibrary::Module {
  std::unique_ptr<cuda::CudaModule> module;
  nvrtc::CompiledFile compiled;
  std::map<std::string, std::unique_ptr<BaselineKernel>, std::less<>> kernels;
};

KernelLibrary::KernelLibrary(std::shared_ptr<const cuda::CudaDriver> driver,
                             std::shared_ptr<const nvrtc::NvrtcLibrary> nvrtc,
                             std::shared_ptr<nvrtc::CompileCache> cache, std::string arch)
    : driver_(std::move(driver)),
      compiler_(std::move(nvrtc), std::move(cache)),
      arch_(std::move(arch)) {}

KernelLibrary::~KernelLibrary() = default;

Result<KernelLibrary::Module*> KernelLibrary::module_for(std::string_view file, DType dtype) {
  const std::string program = kernel_program_name(file, dtype);
  if (auto it = modules_.find(program); it != modules_.end()) return it->second.get();
  PF_ASSIGN(std::string source, kernel_program_source(file, dtype));
  nvrtc::CompileOptions options;
  options.arch = arch_;
  PF_ASSIGN(nvrtc::CompileOutcome outcome, compiler_.compile({{program, source}}, options));
  if (!outcome.ok() || outcome.files.size() != 1) {
    return make_error(ErrorCode::internal,
                      "baseline kernels " + program + " failed to compile: " + outcome.message);
  }
  auto m = std::make_unique<Module>();
  m->compiled = std::move(outcome.files[0]);
  if (m->compiled.cache_hit) {
    ++stats_.programs_cached;
  } else {
    ++stats_.programs_compiled;
    stats_.compile_ms += m->compiled.compile_ms;
    spdlog::debug("baseline kernels {} compiled in {:.0f} ms", program, m->compiled.compile_ms);
  }
  PF_ASSIGN(m->module, cuda::CudaModule::load(driver_, m->compiled.cubin));
  Module* raw = m.get();
  modules_.emplace(program, std::move(m));
  return raw;
}

Result<const BaselineKernel*> KernelLibrary::get(std::string_view file, DType dtype,
                                                 std::string_view name) {
  std::lock_guard<std::mutex> lock(mu_);
  PF_ASSIGN(Module * m, module_for(file, dtype));
  if (auto it = m->kernels.find(name); it != m->kernels.end()) return it->second.get();
  const cuda::KernelInfo* info = nullptr;
  for (const auto& k : m->compiled.kernels) {
    if (k.name == name) info = &k;
  }
  if (info == nullptr) {
    return make_error(ErrorCode::internal, "baseline kernel '" + std::string(name) +
                                               "' is not in " + kernel_program_name(file, dtype));
  }
  PF_ASSIGN(cuda::CudaFunction fn, m->module->function(std::string(name)));
  PF_ASSIGN(cuda::FunctionAttributes attrs, fn.attributes());
  auto k = std::make_unique<BaselineKernel>(BaselineKernel{
      std::string(name), kernel_program_name(file, dtype), std::move(fn),
      cuda::FunctionLimits{attrs.max_threads_per_block, attrs.static_smem_bytes}, 0});
  for (const auto& p : info->params) k->param_bytes = std::max(k->param_bytes, p.offset + p.size);
  if (info->params.size() != 1) {
    return make_error(ErrorCode::internal, "baseline kernel '" + k->name + "' takes " +
                                               std::to_string(info->params.size()) +
                                               " parameters; baseline kernels take one struct");
  }
  const BaselineKernel* raw = k.get();
  m->kernels.emplace(std::string(name), std::move(k));
  return raw;
}

KernelLibraryStats KernelLibrary::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

}  // namespace pf::gpu
