// The probes of `passforge doctor`, one group each. Every probe adds its
// checks and facts to the report and never throws or aborts: a missing
// driver, library, kernel feature or endpoint is a finding, not an error.
#pragma once

#include <string>

#include "cli/doctor_report.h"
#include "config/config_loader.h"

namespace pf::cli {

//! What the GPU probe learned, for the NVRTC probe and the mode decision.
struct GpuFindings {
  bool usable = false;   // a driver, at least one device and a working context
  int device_count = 0;
  std::string arch;      // "sm_90" of device 0 when usable
  std::string reason;    // why not usable
};

//! The effective configuration: file, non-default values and their sources.
void probe_config(const LoadedConfig& loaded, DoctorReport& report);

//! libcuda.so.1 (dlopen), driver version, each GPU's name, compute capability, memory.
GpuFindings probe_gpu(DoctorReport& report);

//! NVRTC version and a test compile of a small kernel for the GPU's
//! architecture (or evaluator.gpu_arch without one); then the compile cache
//! (group "compile_cache"): location, size, and a store + hit round trip of
//! the test kernel with this process's hit/miss counts.
void probe_nvrtc(const Config& config, const GpuFindings& gpu, DoctorReport& report);

//! What a worker started now would get: Landlock ABI, seccomp, namespaces, ...
void probe_isolation(const Config& config, DoctorReport& report);

//! evaluator.nvrtc_cache_dir, or the sandbox's default ("" when there is none).
std::string nvrtc_cache_dir(const Config& config);

//! GET {base_url}/models, or "not configured: the replay endpoint will be used".
void probe_endpoint(const Config& config, double timeout_s, DoctorReport& report);

//! Full evaluation or compile-only, from evaluator.compile_only and the GPU findings.
void decide_mode(const Config& config, const GpuFindings& gpu, DoctorReport& report);

}  // namespace pf::cli
