#include "tests/hostile/kernels/run_kernel_handler.h"

#include <map>

#include "common/strings.h"
#include "sandbox/cuda/cuda_module.h"
#include "sandbox/cuda/device_buffer.h"
#include "sandbox/cuda/launch.h"
#include "sandbox/worker/run_worker.h"

namespace pf::test {
namespace {

using nlohmann::json;

Result<std::array<int64_t, 3>> dims(const json& body, const char* key) {
  std::array<int64_t, 3> d{1, 1, 1};
  auto it = body.find(key);
  if (it == body.end()) return d;
  if (!it->is_array() || it->size() != 3) {
    return make_error(ErrorCode::invalid_argument, std::string(key) + " must be [x, y, z]");
  }
  for (size_t i = 0; i < 3; ++i) d[i] = (*it)[i].get<int64_t>();
  return d;
}

Result<json> run_kernel(worker::CompileService& service, const json& body) {
  PF_ASSIGN(auto files, worker::parse_files(body));
  PF_ASSIGN(auto outcome, service.compile(files, "", false));
  if (!outcome.ok()) {
    return make_error(
        ErrorCode::invalid_argument,
        std::string(nvrtc::compile_status_name(outcome.status)) + ": " + outcome.message);
  }
  cuda::CudaContext* ctx = service.context();
  if (ctx == nullptr)
    return make_error(ErrorCode::unsupported, "run_kernel: this worker has no GPU");
  PF_TRY(ctx->make_current());
  const auto& driver = ctx->driver_ptr();
  const std::string name = body.value("kernel", std::string());
  const nvrtc::CompiledFile* file = nullptr;
  const auto* info = outcome.find_kernel(name, &file);
  if (info == nullptr)
    return make_error(ErrorCode::not_found, "run_kernel: no kernel '" + name + "'");

  auto poisoned_check = [&](Status st) -> Status {
    if (auto p = driver->poisoned(); !p.empty()) sandbox::declare_poisoned(p);
    return st;
  };
  auto module = cuda::CudaModule::load(driver, file->cubin);
  if (!module.ok()) return poisoned_check(module.error()).error();
  PF_ASSIGN(auto fn, (*module)->function(name));

  std::map<std::string, cuda::DeviceBuffer> buffers;
  const json buffer_specs = body.value("buffers", json::object());
  for (const auto& [bname, bytes] : buffer_specs.items()) {
    auto buf = cuda::DeviceBuffer::allocate(driver, bname, bytes.get<size_t>());
    if (!buf.ok()) return poisoned_check(buf.error()).error();
    PF_TRY(buf->fill_bytes(0));
    buffers.emplace(bname, std::move(*buf));
  }
  std::vector<cuda::KernelArg> args;
  const json arg_specs = body.value("args", json::array());
  for (const auto& a : arg_specs) {
    const std::string spec = a.get<std::string>();
    if (starts_with(spec, "buf:")) {
      auto it = buffers.find(spec.substr(4));
      if (it == buffers.end())
        return make_error(ErrorCode::invalid_argument, "run_kernel: no buffer " + spec);
      args.push_back(cuda::KernelArg::tensor(it->second.data()));
    } else if (starts_with(spec, "int:")) {
      args.push_back(cuda::KernelArg::of_int(std::stoll(spec.substr(4))));
    } else if (starts_with(spec, "float:")) {
      args.push_back(cuda::KernelArg::of_float(std::stod(spec.substr(6))));
    } else {
      return make_error(ErrorCode::invalid_argument, "run_kernel: bad argument " + spec);
    }
  }
  PF_ASSIGN(auto pack, cuda::marshal_kernel_args(name, info->params, args));
  cuda::LaunchConfig cfg;
  PF_ASSIGN(cfg.grid, dims(body, "grid"));
  PF_ASSIGN(cfg.block, dims(body, "block"));
  cfg.dynamic_smem_bytes = body.value("smem", int64_t{0});
  PF_TRY(poisoned_check(cuda::launch_kernel(fn, ctx->properties().limits, cfg, pack, nullptr)));
  PF_TRY(poisoned_check(ctx->synchronize()));

  json reply = {{"guards", json::array()}, {"read", json::array()}};
  for (const auto& [bname, buf] : buffers) {
    PF_ASSIGN(auto violations, buf.check_guards());
    for (const auto& v : violations) reply["guards"].push_back(v.describe());
  }
  if (auto r = body.find("read"); r != body.end()) {
    auto it = buffers.find(r->get<std::string>());
    if (it != buffers.end()) {
      std::vector<float> values(std::min<size_t>(it->second.size() / 4, 64));
      PF_TRY(it->second.download(values.data(), values.size() * 4));
      for (float v : values) reply["read"].push_back(v);
    }
  }
  return reply;
}

}  // namespace

void register_run_kernel_handler(sandbox::HandlerTable& table,
                                 std::shared_ptr<worker::CompileService> service) {
  table.add("run_kernel", [service](const json& body) -> Result<json> {
    try {
      return run_kernel(*service, body);
    } catch (const json::exception& e) {
      return make_error(ErrorCode::invalid_argument,
                        std::string("run_kernel: malformed body: ") + e.what());
    }
  });
}

}  // namespace pf::test
