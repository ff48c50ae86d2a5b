#include "evaluator/gpu/kernel_library.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "evaluator/gpu/fatbin.h"
#include "evaluator/gpu/kernel_program.h"
#include "evaluator/gpu/prebuilt_kernels.h"

namespace pf::gpu {

const PrebuiltProgram* find_prebuilt_program(std::string_view program) {
  const auto& all = prebuilt_programs();
  auto it = std::lower_bound(
      all.begin(), all.end(), program,
      [](const PrebuiltProgram& p, std::string_view name) { return p.program < name; });
  return it != all.end() && it->program == program ? &*it : nullptr;
}

struct KernelLibrary::Module {
  std::unique_ptr<cuda::CudaModule> module;
  //! NVRTC-compiled programs: the cubin's kernels and parameter layouts.
  //! Prebuilt programs have none; their layouts come from the driver.
  std::vector<cuda::KernelInfo> kernels_info;
  bool prebuilt = false;
  std::map<std::string, std::unique_ptr<BaselineKernel>, std::less<>> kernels;
};

KernelLibrary::KernelLibrary(std::shared_ptr<const cuda::CudaDriver> driver,
                             std::shared_ptr<const nvrtc::NvrtcLibrary> nvrtc,
                             std::shared_ptr<nvrtc::CompileCache> cache, std::string arch,
                             KernelLibraryOptions options)
    : driver_(std::move(driver)),
      compiler_(std::move(nvrtc), std::move(cache)),
      arch_(std::move(arch)),
      options_(options) {}

KernelLibrary::~KernelLibrary() = default;

std::unique_ptr<KernelLibrary::Module> KernelLibrary::load_prebuilt(const std::string& program) {
  if (!options_.use_prebuilt) return nullptr;
  const PrebuiltProgram* prebuilt = find_prebuilt_program(program);
  if (prebuilt == nullptr) return nullptr;
  auto entries = read_fatbin_entries(prebuilt->fatbin);
  if (!entries.ok()) {
    spdlog::warn("prebuilt kernels {}: {}; compiling with NVRTC", program, entries.error().message);
    return nullptr;
  }
  if (!fatbin_serves(*entries, parse_sm_arch(arch_))) {
    spdlog::debug("prebuilt kernels {} have no code for {}; compiling with NVRTC", program, arch_);
    return nullptr;
  }
  const auto start = std::chrono::steady_clock::now();
  auto module = cuda::CudaModule::load(driver_, prebuilt->fatbin);
  if (!module.ok()) {
    // An older driver cannot read the toolkit's fat binaries (compression,
    // ELF version): NVRTC from the same driver generation still works.
    spdlog::warn("prebuilt kernels {}: {}; compiling with NVRTC", program, module.error().message);
    return nullptr;
  }
  stats_.prebuilt_load_ms +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ++stats_.programs_prebuilt;
  auto m = std::make_unique<Module>();
  m->module = std::move(*module);
  m->prebuilt = true;
  return m;
}

Result<std::unique_ptr<KernelLibrary::Module>> KernelLibrary::compile(std::string_view file,
                                                                      DType dtype,
                                                                      const std::string& program) {
  PF_ASSIGN(std::string source, kernel_program_source(file, dtype));
  nvrtc::CompileOptions options;
  options.arch = arch_;
  PF_ASSIGN(nvrtc::CompileOutcome outcome, compiler_.compile({{program, source}}, options));
  if (!outcome.ok() || outcome.files.size() != 1) {
    return make_error(ErrorCode::internal,
                      "baseline kernels " + program + " failed to compile: " + outcome.message);
  }
  nvrtc::CompiledFile& compiled = outcome.files[0];
  if (compiled.cache_hit) {
    ++stats_.programs_cached;
  } else {
    ++stats_.programs_compiled;
    stats_.compile_ms += compiled.compile_ms;
    spdlog::debug("baseline kernels {} compiled in {:.0f} ms", program, compiled.compile_ms);
  }
  auto m = std::make_unique<Module>();
  PF_ASSIGN(m->module, cuda::CudaModule::load(driver_, compiled.cubin));
  m->kernels_info = std::move(compiled.kernels);
  return m;
}

Result<KernelLibrary::Module*> KernelLibrary::module_for(std::string_view file, DType dtype) {
  const std::string program = kernel_program_name(file, dtype);
  if (auto it = modules_.find(program); it != modules_.end()) return it->second.get();
  std::unique_ptr<Module> m = load_prebuilt(program);
  if (m == nullptr) {
    PF_ASSIGN(m, compile(file, dtype, program));
  }
  Module* raw = m.get();
  modules_.emplace(program, std::move(m));
  return raw;
}

Result<const BaselineKernel*> KernelLibrary::get(std::string_view file, DType dtype,
                                                 std::string_view name) {
  std::lock_guard<std::mutex> lock(mu_);
  PF_ASSIGN(Module * m, module_for(file, dtype));
  if (auto it = m->kernels.find(name); it != m->kernels.end()) return it->second.get();
  const std::string program = kernel_program_name(file, dtype);
  auto fn = m->module->function(std::string(name));
  if (!fn.ok()) {
    return make_error(ErrorCode::internal,
                      "baseline kernel '" + std::string(name) + "' is not in " + program);
  }
  std::vector<cuda::KernelParam> params;
  if (m->prebuilt) {
    PF_ASSIGN(params, fn->param_layout());
  } else {
    auto info = std::find_if(m->kernels_info.begin(), m->kernels_info.end(),
                             [&](const cuda::KernelInfo& k) { return k.name == name; });
    if (info == m->kernels_info.end()) {
      return make_error(ErrorCode::internal,
                        "baseline kernel '" + std::string(name) + "' is not in " + program);
    }
    params = info->params;
  }
  PF_ASSIGN(cuda::FunctionAttributes attrs, fn->attributes());
  auto k = std::make_unique<BaselineKernel>(BaselineKernel{
      std::string(name), program, std::move(*fn),
      cuda::FunctionLimits{attrs.max_threads_per_block, attrs.static_smem_bytes}, 0});
  for (const auto& p : params) k->param_bytes = std::max(k->param_bytes, p.offset + p.size);
  if (params.size() != 1) {
    return make_error(ErrorCode::internal, "baseline kernel '" + k->name + "' takes " +
                                               std::to_string(params.size()) +
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
