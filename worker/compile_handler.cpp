#include "worker/compile_handler.h"

#include <spdlog/spdlog.h>

#include <cstdlib>

#include "sandbox/cuda/cuda_module.h"
#include "sandbox/nvrtc/bundled_headers.h"
#include "sandbox/worker/run_worker.h"

namespace pf::worker {

using nlohmann::json;

Result<std::map<std::string, std::string>> parse_files(const json& body) {
  auto it = body.find("files");
  if (it == body.end() || !it->is_object()) {
    return make_error(ErrorCode::invalid_argument,
                      "compile: \"files\" must be an object {\"kernels/<name>.cu\": \"<source>\"}");
  }
  std::map<std::string, std::string> files;
  for (const auto& [name, source] : it->items()) {
    if (!source.is_string()) {
      return make_error(ErrorCode::invalid_argument,
                        "compile: the source of " + name + " must be a string");
    }
    files.emplace(name, source.get<std::string>());
  }
  return files;
}

Result<std::vector<std::filesystem::path>> CompileService::preload() {
  std::lock_guard lock(mu_);
  PF_ASSIGN(auto* c, compiler());
  return std::vector<std::filesystem::path>{
      std::filesystem::path(c->library().path()).parent_path()};
}

Result<nvrtc::NvrtcCompiler*> CompileService::compiler() {
  if (!compiler_) {
    PF_ASSIGN(auto lib, nvrtc::NvrtcLibrary::load());
    std::shared_ptr<nvrtc::CompileCache> cache;
    if (!options_.cache_dir.empty()) {
      cache = std::make_shared<nvrtc::CompileCache>(options_.cache_dir,
                                                    options_.worker_limits.cache_max_mb << 20);
    }
    compiler_ = std::make_unique<nvrtc::NvrtcCompiler>(std::move(lib), std::move(cache));
    spdlog::debug("NVRTC {} loaded from {}", compiler_->library().version(),
                  compiler_->library().path());
  }
  return compiler_.get();
}

void CompileService::init_device() {
  if (device_tried_) return;
  device_tried_ = true;
  if (!options_.use_device) {
    device_reason_ = "disabled";
    return;
  }
  auto driver = cuda::CudaDriver::load();
  if (!driver.ok()) {
    device_reason_ = driver.error().message;
    return;
  }
  auto ctx = cuda::CudaContext::create(*driver);
  if (!ctx.ok()) {
    device_reason_ = ctx.error().message;
    return;
  }
  context_ = std::move(*ctx);
}

cuda::CudaContext* CompileService::context() {
  std::lock_guard lock(mu_);
  init_device();
  return context_.get();
}

std::string CompileService::device_reason() {
  std::lock_guard lock(mu_);
  return device_reason_;
}

Status CompileService::verify_on_device(nvrtc::CompileOutcome& outcome) {
  const auto& driver = context_->driver_ptr();
  PF_TRY(context_->make_current());
  for (const auto& file : outcome.files) {
    PF_ASSIGN(auto module, cuda::CudaModule::load(driver, file.cubin));
    for (const auto& k : file.kernels) {
      PF_ASSIGN(auto fn, module->function(k.name));
      auto layout = fn.param_layout();
      if (!layout.ok()) {
        if (layout.error().code == ErrorCode::unsupported)
          return ok_status();  // old driver: cubin layout
        return layout.error();
      }
      bool same = layout->size() == k.params.size();
      for (size_t i = 0; same && i < layout->size(); ++i) {
        same = (*layout)[i].offset == k.params[i].offset && (*layout)[i].size == k.params[i].size;
      }
      if (!same) {
        return make_error(ErrorCode::internal, "kernel '" + k.name +
                                                   "': the cubin's parameter layout (" +
                                                   cuda::describe_params(k.params) +
                                                   ") differs from cuFuncGetParamInfo's (" +
                                                   cuda::describe_params(*layout) + ")");
      }
    }
  }
  return ok_status();
}

Result<nvrtc::CompileOutcome> CompileService::compile(
    const std::map<std::string, std::string>& files, const std::string& arch, bool lineinfo) {
  std::lock_guard lock(mu_);
  PF_ASSIGN(auto* c, compiler());
  init_device();
  nvrtc::CompileOptions opt;
  opt.arch = !arch.empty() ? arch
             : context_    ? context_->properties().arch()
                           : std::string(nvrtc::kDefaultArch);
  opt.lineinfo = lineinfo;
  opt.limits = options_.limits;
  opt.log_limits = options_.log_limits;
  opt.deadline = sandbox::current_request_deadline();
  opt.max_cubin_bytes = options_.worker_limits.max_cubin_mb << 20;
  const uint64_t timeout_ms = options_.worker_limits.compile_timeout_ms;
  const uint64_t memory_mb = options_.worker_limits.compile_memory_mb;
  auto armed = watchdog_.arm(
      std::chrono::milliseconds(timeout_ms),
      fmt::format("compile time: NVRTC compiling the pass's kernels ran longer than {:g} s "
                  "(evaluator.compile_timeout_s); simplify the kernels (huge initialised arrays, "
                  "deep template recursion, huge unrolled loops?)",
                  static_cast<double>(timeout_ms) / 1000.0),
      memory_mb << 20,
      fmt::format("compile memory: NVRTC compiling the pass's kernels needed more than {} MiB "
                  "(evaluator.compile_memory_mb); simplify the kernels (huge initialised arrays, "
                  "deep template recursion, huge unrolled loops?)",
                  memory_mb));
  return c->compile(files, opt);
}

Result<json> CompileService::handle(const json& body) {
  if (!body.is_object())
    return make_error(ErrorCode::invalid_argument, "compile: the body must be an object");
  PF_ASSIGN(auto files, parse_files(body));
  std::string arch;
  if (auto a = body.find("arch"); a != body.end() && !a->is_null()) {
    if (!a->is_string())
      return make_error(ErrorCode::invalid_argument, "compile: \"arch\" must be a string or null");
    arch = a->get<std::string>();
  }
  bool lineinfo = false;
  if (auto l = body.find("lineinfo"); l != body.end() && !l->is_null()) {
    if (!l->is_boolean())
      return make_error(ErrorCode::invalid_argument, "compile: \"lineinfo\" must be a boolean");
    lineinfo = l->get<bool>();
  }
  PF_ASSIGN(auto outcome, compile(files, arch, lineinfo));

  std::lock_guard lock(mu_);
  std::string param_source = "cubin";
  // Only a module compiled for this GPU can be loaded on it.
  if (outcome.ok() && context_ && outcome.arch == context_->properties().arch()) {
    Status verified = verify_on_device(outcome);
    if (auto poisoned = context_->driver().poisoned(); !poisoned.empty())
      sandbox::declare_poisoned(poisoned);
    PF_TRY(verified);
    param_source = "device";
  }
  json kernels = json::array();
  json files_json = json::array();
  for (const auto& f : outcome.files) {
    for (const auto& k : f.kernels) kernels.push_back(k.to_json());
    files_json.push_back({{"file", f.file},
                          {"compiled", f.compiled},
                          {"cache_hit", f.cache_hit},
                          {"compile_ms", f.compile_ms},
                          {"cubin_bytes", f.cubin.size()},
                          {"errors", f.log.total_errors},
                          {"warnings", f.log.total_warnings}});
  }
  json flags = json::array();
  for (const auto& f : outcome.flags()) flags.push_back(f.to_json());
  json cache = {{"enabled", compiler_->cache() != nullptr},
                {"hits", outcome.cache_hits},
                {"misses", outcome.cache_misses}};
  if (compiler_->cache()) {
    cache["dir"] = compiler_->cache()->dir().string();
    cache["totals"] = compiler_->cache()->stats().to_json();
  }
  return json{{"status", nvrtc::compile_status_name(outcome.status)},
              {"message", outcome.message},
              {"arch", outcome.arch},
              {"nvrtc_version", compiler_->library().version()},
              {"param_source", param_source},
              {"kernels", kernels},
              {"files", files_json},
              {"warnings", outcome.warnings_text()},
              {"flags", flags},
              {"cache", cache}};
}

json CompileService::describe() {
  std::lock_guard lock(mu_);
  json out = json::object();
  auto c = compiler();
  if (!c.ok()) {
    out["nvrtc"] = {{"available", false}, {"reason", c.error().message}};
  } else {
    out["nvrtc"] = {{"available", true},
                    {"path", (*c)->library().path()},
                    {"version", (*c)->library().version()},
                    {"bundled_headers_cuda", nvrtc::bundled_headers_cuda_version()}};
    if (auto cache = (*c)->cache()) {
      auto usage = cache->usage();
      out["cache"] = {{"dir", cache->dir().string()},
                      {"entries", usage.entries},
                      {"bytes", usage.bytes},
                      {"stats", cache->stats().to_json()}};
    }
  }
  init_device();
  if (context_) {
    out["device"] = context_->properties().to_json();
  } else {
    out["device"] = {{"available", false}, {"reason", device_reason_}};
  }
  return out;
}

void CompileService::log_summary() {
  std::lock_guard lock(mu_);
  if (compiler_ && compiler_->cache()) compiler_->cache()->log_summary();
}

void open_device_before_confinement(sandbox::IsolationOptions& isolation,
                                    const std::shared_ptr<CompileService>& service) {
  const char* gpus = std::getenv("CUDA_VISIBLE_DEVICES");
  if (gpus == nullptr || *gpus == '\0') return;
  isolation.before_confinement = [service] { service->context(); };
}

void register_compile_handler(sandbox::HandlerTable& table,
                              const std::shared_ptr<CompileService>& service) {
  table.add("compile", [service](const json& body) { return service->handle(body); });
  // NVRTC, cache and device state (or why there is no device), for diagnostics.
  table.add("describe", [service](const json&) -> Result<json> { return service->describe(); });
}

}  // namespace pf::worker
