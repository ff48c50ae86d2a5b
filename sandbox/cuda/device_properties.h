// What the harness needs to know about a GPU: the architecture NVRTC compiles
// for, the limits a launch is validated against, the L2 size the flush buffer
// covers and the peak numbers integrity checks compare speedups with.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "common/result.h"
#include "sandbox/cuda/cuda_driver.h"

namespace pf::cuda {

//! The limits a launch is validated against (pure data: tests build them by hand).
struct DeviceLimits {
  int max_threads_per_block = 1024;
  std::array<int, 3> max_block_dims{1024, 1024, 64};
  std::array<int, 3> max_grid_dims{2147483647, 65535, 65535};
  int64_t max_smem_per_block = 48 * 1024;  // without opting in
  int64_t max_smem_per_block_optin =
      48 * 1024;  // with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
};

struct DeviceProperties {
  int ordinal = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  uint64_t total_memory_bytes = 0;
  int sm_count = 0;
  int64_t l2_cache_bytes = 0;
  int warp_size = 32;
  int memory_clock_khz = 0;  // peak memory clock
  int memory_bus_width_bits = 0;
  int clock_khz = 0;  // peak SM clock
  DeviceLimits limits;
  int driver_version = 0;

  //! "sm_90": the architecture NVRTC compiles for.
  std::string arch() const;
  //! Theoretical DRAM bandwidth (2 transfers per clock), bytes/s; 0 if unknown.
  double peak_memory_bandwidth() const;
  nlohmann::json to_json() const;
};

Result<DeviceProperties> query_device_properties(const CudaDriver& driver, int ordinal);

}  // namespace pf::cuda
