#include "sandbox/cuda/device_properties.h"

namespace pf::cuda {

std::string DeviceProperties::arch() const {
  return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
}

double DeviceProperties::peak_memory_bandwidth() const {
  return 2.0 * memory_clock_khz * 1e3 * (memory_bus_width_bits / 8.0);
}

nlohmann::json DeviceProperties::to_json() const {
  return {
      {"ordinal", ordinal},
      {"name", name},
      {"arch", arch()},
      {"compute_capability", std::to_string(cc_major) + "." + std::to_string(cc_minor)},
      {"total_memory_bytes", total_memory_bytes},
      {"sm_count", sm_count},
      {"l2_cache_bytes", l2_cache_bytes},
      {"warp_size", warp_size},
      {"max_threads_per_block", limits.max_threads_per_block},
      {"max_block_dims", limits.max_block_dims},
      {"max_grid_dims", limits.max_grid_dims},
      {"max_smem_per_block", limits.max_smem_per_block},
      {"max_smem_per_block_optin", limits.max_smem_per_block_optin},
      {"memory_clock_khz", memory_clock_khz},
      {"memory_bus_width_bits", memory_bus_width_bits},
      {"peak_memory_bandwidth_gbs", peak_memory_bandwidth() / 1e9},
      {"clock_khz", clock_khz},
      {"driver_version", driver_version},
  };
}

Result<DeviceProperties> query_device_properties(const CudaDriver& driver, int ordinal) {
  const auto& fn = driver.api();
  if (ordinal < 0 || ordinal >= driver.device_count()) {
    return make_error(ErrorCode::invalid_argument, "no CUDA device " + std::to_string(ordinal) +
                                                       " (the driver sees " +
                                                       std::to_string(driver.device_count()) + ")");
  }
  CUdevice dev = 0;
  PF_TRY(driver.check(fn.cuDeviceGet(&dev, ordinal), "cuDeviceGet"));
  DeviceProperties p;
  p.ordinal = ordinal;
  p.driver_version = driver.driver_version();
  char name[256] = {};
  PF_TRY(driver.check(fn.cuDeviceGetName(name, sizeof(name) - 1, dev), "cuDeviceGetName"));
  p.name = name;
  size_t total = 0;
  PF_TRY(driver.check(fn.cuDeviceTotalMem(&total, dev), "cuDeviceTotalMem"));
  p.total_memory_bytes = total;

  auto attr = [&](CUdevice_attribute a, const char* what) -> Result<int> {
    int v = 0;
    PF_TRY(driver.check(fn.cuDeviceGetAttribute(&v, a, dev),
                        std::string("cuDeviceGetAttribute(") + what + ")"));
    return v;
  };
#define PF_ATTR(field, a) PF_ASSIGN(field, attr(a, #a))
  PF_ATTR(p.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  PF_ATTR(p.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  PF_ATTR(p.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  PF_ATTR(int l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  p.l2_cache_bytes = l2;
  PF_ATTR(p.warp_size, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  PF_ATTR(p.memory_clock_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  PF_ATTR(p.memory_bus_width_bits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  PF_ATTR(p.clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  PF_ATTR(p.limits.max_threads_per_block, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  PF_ATTR(p.limits.max_block_dims[0], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  PF_ATTR(p.limits.max_block_dims[1], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  PF_ATTR(p.limits.max_block_dims[2], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  PF_ATTR(p.limits.max_grid_dims[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  PF_ATTR(p.limits.max_grid_dims[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  PF_ATTR(p.limits.max_grid_dims[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  PF_ATTR(int smem, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  PF_ATTR(int smem_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
#undef PF_ATTR
  p.limits.max_smem_per_block = smem;
  p.limits.max_smem_per_block_optin = smem_optin > smem ? smem_optin : smem;
  return p;
}

}  // namespace pf::cuda
