// Doctor probe of the CUDA driver and GPUs, through sandbox/cuda (the one
// dlopen of libcuda.so.1).
#include "cli/doctor_probes.h"

#include "common/strings.h"
#include "sandbox/cuda/cuda_context.h"
#include "sandbox/cuda/cuda_driver.h"
#include "sandbox/cuda/device_properties.h"

namespace pf::cli {

GpuFindings probe_gpu(DoctorReport& report) {
  GpuFindings found;
  auto& facts = report.facts("cuda");
  facts["gpus"] = nlohmann::json::array();
  facts["usable"] = false;
  auto driver = cuda::CudaDriver::load();
  if (!driver.ok()) {
    const std::string& why = driver.error().message;
    bool no_library = starts_with(why, "no CUDA driver");
    facts["driver"] = !no_library;
    facts["error"] = why;
    report.add("cuda", "driver", no_library ? CheckStatus::info : CheckStatus::warn,
               no_library ? "not present: " + why : "present but unusable: " + why);
    report.add("cuda", "gpus", CheckStatus::info, "no GPU");
    found.reason = "no GPU (" + why + ")";
    return found;
  }
  const auto& d = **driver;
  facts["driver"] = true;
  facts["driver_version"] = d.driver_version_string();
  facts["library"] = d.library_path();
  report.add("cuda", "driver", CheckStatus::ok,
             "CUDA " + d.driver_version_string() + " (" + d.library_path() + ")");
  found.device_count = d.device_count();
  for (int i = 0; i < d.device_count(); ++i) {
    auto props = cuda::query_device_properties(d, i);
    if (!props.ok()) {
      report.add("cuda", "gpu " + std::to_string(i), CheckStatus::warn, props.error().message);
      continue;
    }
    facts["gpus"].push_back(props->to_json());
    char mem[32];
    std::snprintf(mem, sizeof mem, "%.1f GiB",
                  static_cast<double>(props->total_memory_bytes) / (1ull << 30));
    report.add("cuda", "gpu " + std::to_string(i), CheckStatus::info,
               props->name + ", compute capability " + std::to_string(props->cc_major) + "." +
                   std::to_string(props->cc_minor) + " (" + props->arch() + "), " + mem);
  }
  // A context on device 0 proves the GPU can actually be used (not only listed).
  auto ctx = cuda::CudaContext::create(*driver);
  if (!ctx.ok()) {
    found.reason = "GPU 0 is listed but unusable (" + ctx.error().message + ")";
    report.add("cuda", "context", CheckStatus::warn, found.reason);
    return found;
  }
  report.add("cuda", "context", CheckStatus::ok, "created on GPU 0");
  found.usable = true;
  found.arch = (*ctx)->properties().arch();
  facts["usable"] = true;
  return found;
}

}  // namespace pf::cli
