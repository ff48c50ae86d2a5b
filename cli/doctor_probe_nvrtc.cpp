// Doctor probe of NVRTC and the compile cache, through sandbox/nvrtc (the one
// dlopen of libnvrtc).
#include <memory>

#include "cli/doctor_probes.h"
#include "sandbox/nvrtc/compile_cache.h"
#include "sandbox/nvrtc/nvrtc_compiler.h"
#include "sandbox/nvrtc/nvrtc_library.h"

namespace pf::cli {
namespace {

// Uses a bundled header and a float/half conversion, like real pass kernels.
constexpr const char* kTestFile = "kernels/doctor_axpy.cu";
constexpr const char* kTestKernel = R"(#include <cuda_fp16.h>
extern "C" __global__ void doctor_axpy(const __half* x, __half* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2half(a * __half2float(x[i]) + __half2float(y[i]));
}
)";

void probe_cache(const std::shared_ptr<const nvrtc::NvrtcLibrary>& lib,
                 const nvrtc::CompileOptions& options, const std::string& dir, DoctorReport& report) {
  auto& facts = report.facts("compile_cache");
  facts["dir"] = dir;
  if (dir.empty()) {
    report.add("compile_cache", "dir", CheckStatus::warn,
               "none: neither XDG_CACHE_HOME nor HOME is set and evaluator.nvrtc_cache_dir is "
               "empty, so every kernel compiles every time");
    return;
  }
  auto cache = std::make_shared<nvrtc::CompileCache>(dir);
  nvrtc::NvrtcCompiler compiler(lib, cache);
  // The first compile stores the test kernel (or finds it from an earlier
  // doctor run); the second must then be a hit.
  bool round_trip = false;
  for (int i = 0; i < 2; ++i) {
    auto outcome = compiler.compile({{kTestFile, kTestKernel}}, options);
    round_trip = outcome.ok() && outcome->ok() && outcome->cache_hits == 1;
  }
  auto usage = cache->usage();
  facts["entries"] = usage.entries;
  facts["bytes"] = usage.bytes;
  facts["stats"] = cache->stats().to_json();
  facts["works"] = round_trip;
  auto stats = cache->stats();
  report.add("compile_cache", "dir", CheckStatus::info,
             dir + ": " + std::to_string(usage.entries) + " entries, " +
                 std::to_string(usage.bytes / 1024) + " KiB");
  report.add("compile_cache", "round trip", round_trip ? CheckStatus::ok : CheckStatus::warn,
             (round_trip ? std::string("store and hit work") : std::string("no hit after a store")) +
                 " (this check: " + std::to_string(stats.hits) + " hits, " +
                 std::to_string(stats.misses) + " misses, " + std::to_string(stats.stores) +
                 " stores, " + std::to_string(stats.store_failures) + " store failures)");
}

}  // namespace

std::string nvrtc_cache_dir(const Config& config) {
  if (!config.evaluator.nvrtc_cache_dir.empty()) return config.evaluator.nvrtc_cache_dir;
  return nvrtc::CompileCache::default_dir().string();
}

void probe_nvrtc(const Config& config, const GpuFindings& gpu, DoctorReport& report) {
  auto& facts = report.facts("nvrtc");
  facts["available"] = false;
  auto lib = nvrtc::NvrtcLibrary::load();
  if (!lib.ok()) {
    facts["error"] = lib.error().message;
    report.add("nvrtc", "library", CheckStatus::fail, lib.error().message);
    report.facts("compile_cache")["dir"] = nvrtc_cache_dir(config);
    return;
  }
  facts["available"] = true;
  facts["version"] = (*lib)->version();
  facts["library"] = (*lib)->path();
  facts["supported_archs"] = (*lib)->supported_archs();
  report.add("nvrtc", "library", CheckStatus::ok,
             "NVRTC " + (*lib)->version() + " (" + (*lib)->path() + ")");

  nvrtc::CompileOptions options;
  options.arch = gpu.usable ? gpu.arch : config.evaluator.gpu_arch;
  facts["arch"] = options.arch;
  if (auto st = (*lib)->check_arch(options.arch); !st.ok()) {
    report.add("nvrtc", "arch", CheckStatus::fail, st.error().message);
    return;
  }
  nvrtc::NvrtcCompiler compiler(*lib, nullptr);
  auto outcome = compiler.compile({{kTestFile, kTestKernel}}, options);
  bool ok = outcome.ok() && outcome->ok() && outcome->find_kernel("doctor_axpy") != nullptr;
  facts["test_compile"] = ok;
  if (!outcome.ok()) {
    report.add("nvrtc", "test compile", CheckStatus::fail, outcome.error().message);
  } else if (!ok) {
    report.add("nvrtc", "test compile", CheckStatus::fail,
               std::string(nvrtc::compile_status_name(outcome->status)) + ": " + outcome->message);
  } else {
    double ms = outcome->files.empty() ? 0 : outcome->files[0].compile_ms;
    facts["test_compile_ms"] = ms;
    char detail[96];
    std::snprintf(detail, sizeof detail, "a small fp16 kernel for %s in %.0f ms", options.arch.c_str(), ms);
    report.add("nvrtc", "test compile", CheckStatus::ok, detail);
    probe_cache(*lib, options, nvrtc_cache_dir(config), report);
    return;
  }
  report.facts("compile_cache")["dir"] = nvrtc_cache_dir(config);
}

}  // namespace pf::cli
