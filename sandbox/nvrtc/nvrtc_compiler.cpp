#include "sandbox/nvrtc/nvrtc_compiler.h"

#include <cxxabi.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>

#include "sandbox/nvrtc/bundled_headers.h"
#include "sandbox/nvrtc/cubin_reader.h"
#include "sandbox/nvrtc/kernel_signatures.h"
#include "sandbox/nvrtc/ptx_flags.h"
#include "sandbox/nvrtc/source_scanner.h"

namespace pf::nvrtc {
namespace {

using Clock = std::chrono::steady_clock;

struct FlowState {
  Clock::time_point deadline;
};

// nvrtcSetFlowCallback: 1 cancels. Must be thread-safe and consistent (once 1,
// always 1), which a monotonic clock comparison is.
int flow_callback(void* payload, void*) {
  auto* state = static_cast<FlowState*>(payload);
  return Clock::now() >= state->deadline ? 1 : 0;
}

// RAII for an nvrtcProgram.
class Program {
 public:
  Program(const NvrtcLibrary& lib, nvrtcProgram p) : lib_(lib), p_(p) {}
  ~Program() {
    if (p_ != nullptr) lib_.api().nvrtcDestroyProgram(&p_);
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram get() const { return p_; }

 private:
  const NvrtcLibrary& lib_;
  nvrtcProgram p_;
};

std::string demangle(const std::string& name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string out = status == 0 && d != nullptr ? d : name;
  std::free(d);
  return out;
}

}  // namespace

const char* compile_status_name(CompileStatus s) {
  switch (s) {
    case CompileStatus::ok:
      return "ok";
    case CompileStatus::rejected:
      return "rejected";
    case CompileStatus::compile_error:
      return "compile_error";
    case CompileStatus::timeout:
      return "timeout";
    case CompileStatus::resource_limit:
      return "resource_limit";
  }
  return "compile_error";
}

const cuda::KernelInfo* CompileOutcome::find_kernel(const std::string& name,
                                                    const CompiledFile** file) const {
  for (const auto& f : files) {
    for (const auto& k : f.kernels) {
      if (k.name == name) {
        if (file != nullptr) *file = &f;
        return &k;
      }
    }
  }
  return nullptr;
}

std::vector<std::string> CompileOutcome::kernel_names() const {
  std::vector<std::string> names;
  for (const auto& f : files) {
    for (const auto& k : f.kernels) names.push_back(k.name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<SourceFlag> CompileOutcome::flags() const {
  std::vector<SourceFlag> out;
  for (const auto& f : files) out.insert(out.end(), f.flags.begin(), f.flags.end());
  return out;
}

std::string CompileOutcome::warnings_text() const {
  std::string out;
  for (const auto& f : files) out += f.log.warnings_text;
  return out;
}

nlohmann::json CompileOutcome::to_json() const {
  nlohmann::json jf = nlohmann::json::array();
  for (const auto& f : files) {
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& k : f.kernels) kernels.push_back(k.to_json());
    nlohmann::json flags = nlohmann::json::array();
    for (const auto& fl : f.flags) flags.push_back(fl.to_json());
    jf.push_back({{"file", f.file},
                  {"flags", flags},
                  {"compiled", f.compiled},
                  {"cache_hit", f.cache_hit},
                  {"compile_ms", f.compile_ms},
                  {"cubin_bytes", f.cubin.size()},
                  {"kernels", kernels},
                  {"log", f.log.to_json()}});
  }
  return {{"status", compile_status_name(status)},
          {"message", message},
          {"arch", arch},
          {"files", jf},
          {"cache_hits", cache_hits},
          {"cache_misses", cache_misses}};
}

NvrtcCompiler::NvrtcCompiler(std::shared_ptr<const NvrtcLibrary> nvrtc,
                             std::shared_ptr<CompileCache> cache)
    : nvrtc_(std::move(nvrtc)), cache_(std::move(cache)) {}

std::vector<std::string> NvrtcCompiler::nvrtc_flags(const CompileOptions& options) {
  std::vector<std::string> flags = {"--gpu-architecture=" + options.arch, "-default-device",
                                    "--std=c++17", "--no-source-include"};
  if (options.lineinfo) flags.push_back("-lineinfo");
  return flags;
}

Result<CompiledFile> NvrtcCompiler::compile_file(const std::string& name, const std::string& source,
                                                 const CompileOptions& options,
                                                 bool& cancelled) const {
  CompiledFile out;
  out.file = name;
  const auto flags = nvrtc_flags(options);
  const std::string key = CompileCache::key(name, source, flags, options.arch, nvrtc_->version(),
                                            bundled_headers_sha256());
  CacheEntry entry;
  if (auto hit = cache_ ? cache_->lookup(key) : std::nullopt) {
    entry = std::move(*hit);
    out.cache_hit = true;
    spdlog::debug("nvrtc {} ({}): cache hit {}", name, options.arch, key.substr(0, 12));
  } else {
    const auto& fn = nvrtc_->api();
    const auto& headers = bundled_headers();
    std::vector<const char*> header_names, header_texts;
    for (const auto& h : headers) {
      header_names.push_back(h.name);
      header_texts.push_back(h.text);
    }
    nvrtcProgram raw = nullptr;
    nvrtcResult r =
        fn.nvrtcCreateProgram(&raw, source.c_str(), name.c_str(), static_cast<int>(headers.size()),
                              header_texts.data(), header_names.data());
    if (r != NVRTC_SUCCESS) {
      return make_error(
          r == NVRTC_ERROR_OUT_OF_MEMORY ? ErrorCode::unavailable : ErrorCode::internal,
          "nvrtcCreateProgram(" + name + "): " + nvrtc_->error_string(r));
    }
    Program program(*nvrtc_, raw);
    FlowState flow{options.deadline};
    if (fn.nvrtcSetFlowCallback != nullptr && options.deadline != Clock::time_point::max()) {
      fn.nvrtcSetFlowCallback(program.get(), flow_callback, &flow);
    }
    std::vector<const char*> argv;
    for (const auto& f : flags) argv.push_back(f.c_str());
    const auto t0 = Clock::now();
    r = fn.nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());
    out.compile_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    size_t log_size = 0;
    if (fn.nvrtcGetProgramLogSize(program.get(), &log_size) == NVRTC_SUCCESS && log_size > 1) {
      entry.log.resize(log_size);
      if (fn.nvrtcGetProgramLog(program.get(), entry.log.data()) != NVRTC_SUCCESS)
        entry.log.clear();
      while (!entry.log.empty() && entry.log.back() == '\0') entry.log.pop_back();
    }
    if (r == NVRTC_ERROR_CANCELLED) {
      cancelled = true;
      spdlog::debug("nvrtc {} ({}): cancelled at the deadline after {:.0f} ms", name, options.arch,
                    out.compile_ms);
      return out;
    }
    if (r != NVRTC_SUCCESS && r != NVRTC_ERROR_COMPILATION) {
      return make_error(
          r == NVRTC_ERROR_OUT_OF_MEMORY ? ErrorCode::unavailable : ErrorCode::internal,
          "nvrtcCompileProgram(" + name + "): " + nvrtc_->error_string(r) +
              (entry.log.empty() ? "" : ": " + entry.log));
    }
    entry.compiled = r == NVRTC_SUCCESS;
    if (entry.compiled) {
      size_t cubin_size = 0;
      if (fn.nvrtcGetCUBINSize(program.get(), &cubin_size) != NVRTC_SUCCESS || cubin_size == 0) {
        return make_error(ErrorCode::internal,
                          "nvrtcGetCUBINSize(" + name + ") failed (arch " + options.arch + ")");
      }
      if (options.max_cubin_bytes != 0 && cubin_size > options.max_cubin_bytes) {
        out.limit = "cubin size: " + name + " compiled into a " + std::to_string(cubin_size >> 20) +
                    " MiB cubin, over the limit of " +
                    std::to_string(options.max_cubin_bytes >> 20) +
                    " MiB (evaluator.max_cubin_mb); large initialised __device__ arrays end "
                    "up in the cubin";
        return out;
      }
      entry.cubin.resize(cubin_size);
      if (fn.nvrtcGetCUBIN(program.get(), entry.cubin.data()) != NVRTC_SUCCESS) {
        return make_error(ErrorCode::internal, "nvrtcGetCUBIN(" + name + ") failed");
      }
      PF_ASSIGN(entry.kernels, read_cubin_kernels(entry.cubin));
      // NVRTC keeps the PTX it lowered to the cubin: the integrity flags
      // come from what was compiled, not from how the source spelled it.
      size_t ptx_size = 0;
      if (fn.nvrtcGetPTXSize(program.get(), &ptx_size) != NVRTC_SUCCESS || ptx_size == 0) {
        return make_error(ErrorCode::internal, "nvrtcGetPTXSize(" + name + ") failed");
      }
      std::string ptx(ptx_size, '\0');
      if (fn.nvrtcGetPTX(program.get(), ptx.data()) != NVRTC_SUCCESS) {
        return make_error(ErrorCode::internal, "nvrtcGetPTX(" + name + ") failed");
      }
      entry.ptx_flags = detect_ptx_flags(name, ptx);
    }
    spdlog::debug("nvrtc {} ({}): cache miss {}, compiled in {:.0f} ms{}", name, options.arch,
                  key.substr(0, 12), out.compile_ms, entry.compiled ? "" : " with errors");
    if (cache_ && entry.compiled) (void)cache_->store(key, entry);
  }
  out.compiled = entry.compiled;
  out.cubin = std::move(entry.cubin);
  out.kernels = std::move(entry.kernels);
  out.flags = std::move(entry.ptx_flags);
  out.log = clean_compile_log(entry.log, options.log_limits);
  // Kinds and names from the source; the scan cannot fail here (the policy
  // check already scanned the same text).
  if (auto tokens = scan_source(name, source); tokens.ok()) {
    auto hints = detect_source_flags(name, *tokens);
    out.flags.insert(out.flags.end(), hints.begin(), hints.end());
    auto declared = find_kernel_declarations(*tokens);
    for (auto& k : out.kernels) {
      k.file = name;
      if (auto it = declared.find(k.name); it != declared.end())
        apply_declaration(it->second, k.params);
    }
  }
  return out;
}

Result<CompileOutcome> NvrtcCompiler::compile(const std::map<std::string, std::string>& files,
                                              const CompileOptions& options) const {
  CompileOutcome out;
  out.arch = options.arch;
  PF_TRY(nvrtc_->check_arch(options.arch));
  if (Status policy = check_sources(files, options.limits); !policy.ok()) {
    out.status = CompileStatus::rejected;
    out.message = policy.error().message;
    return out;
  }
  std::string errors;
  bool cancelled = false;
  for (const auto& [name, source] : files) {
    PF_ASSIGN(auto file, compile_file(name, source, options, cancelled));
    if (cancelled) {
      out.status = CompileStatus::timeout;
      out.message = "compiling " + name + " did not finish before the deadline (" +
                    std::to_string(static_cast<long long>(file.compile_ms)) +
                    " ms); simplify the kernel (deep template recursion or huge unrolled loops?)";
      return out;
    }
    if (!file.limit.empty()) {
      out.status = CompileStatus::resource_limit;
      out.message = file.limit;
      return out;
    }
    (file.cache_hit ? out.cache_hits : out.cache_misses)++;
    if (!file.compiled) {
      errors += file.log.errors_text.empty() ? name + ": compilation failed without a message\n"
                                             : file.log.errors_text;
    }
    out.files.push_back(std::move(file));
  }
  // Kernel names: extern "C" only, unique across files.
  std::map<std::string, std::string> owner;
  for (const auto& f : out.files) {
    for (const auto& k : f.kernels) {
      if (k.name.rfind("_Z", 0) == 0) {
        errors += f.file + ": kernel '" + demangle(k.name) + "' has the C++-mangled name " +
                  k.name +
                  "; declare kernels extern \"C\" __global__ (templates cannot be kernels)\n";
      }
      auto [it, inserted] = owner.emplace(k.name, f.file);
      if (!inserted) {
        errors += "kernel '" + k.name + "' is defined in both " + it->second + " and " + f.file +
                  "; kernel names must be unique across the pass's files\n";
      }
    }
  }
  if (!errors.empty()) {
    out.status = CompileStatus::compile_error;
    out.message = errors;
  }
  return out;
}

}  // namespace pf::nvrtc
