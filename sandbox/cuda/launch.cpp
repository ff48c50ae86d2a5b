#include "sandbox/cuda/launch.h"

#include "sandbox/cuda/cuda_module.h"

namespace pf::cuda {
namespace {

std::string dims(const std::array<int64_t, 3>& d) {
  return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
}

const char* kAxis[3] = {"x", "y", "z"};

}  // namespace

std::string LaunchConfig::describe() const {
  return "grid " + dims(grid) + " block " + dims(block) + " smem " +
         std::to_string(dynamic_smem_bytes);
}

Status validate_launch(const std::string& kernel, const LaunchConfig& config,
                       const DeviceLimits& device, const FunctionLimits& function) {
  const std::string who = "launch of '" + kernel + "' with " + config.describe() + ": ";
  auto bad = [&](const std::string& why) {
    return make_error(ErrorCode::invalid_argument, who + why);
  };
  for (int i = 0; i < 3; ++i) {
    if (config.grid[i] < 1) return bad(std::string("grid.") + kAxis[i] + " must be >= 1");
    if (config.grid[i] > device.max_grid_dims[i]) {
      return bad(std::string("grid.") + kAxis[i] + " = " + std::to_string(config.grid[i]) +
                 " exceeds the device limit " + std::to_string(device.max_grid_dims[i]));
    }
    if (config.block[i] < 1) return bad(std::string("block.") + kAxis[i] + " must be >= 1");
    if (config.block[i] > device.max_block_dims[i]) {
      return bad(std::string("block.") + kAxis[i] + " = " + std::to_string(config.block[i]) +
                 " exceeds the device limit " + std::to_string(device.max_block_dims[i]));
    }
  }
  const int64_t threads = config.block[0] * config.block[1] * config.block[2];
  if (threads > device.max_threads_per_block) {
    return bad("the block has " + std::to_string(threads) + " threads; the device allows at most " +
               std::to_string(device.max_threads_per_block));
  }
  if (threads > function.max_threads_per_block) {
    return bad("the block has " + std::to_string(threads) +
               " threads; this kernel allows at most " +
               std::to_string(function.max_threads_per_block) +
               " (its register use limits the block size)");
  }
  if (config.dynamic_smem_bytes < 0) return bad("smem must be >= 0");
  const int64_t total = config.dynamic_smem_bytes + function.static_smem_bytes;
  if (total > device.max_smem_per_block_optin) {
    return bad("shared memory " + std::to_string(config.dynamic_smem_bytes) + " dynamic + " +
               std::to_string(function.static_smem_bytes) + " static = " + std::to_string(total) +
               " bytes exceeds the device limit of " +
               std::to_string(device.max_smem_per_block_optin) + " bytes per block");
  }
  return ok_status();
}

Status launch_kernel(const CudaFunction& function, const DeviceLimits& device,
                     const LaunchConfig& config, ArgPack& args, CUstream stream) {
  PF_ASSIGN(auto attrs, function.attributes());
  FunctionLimits limits{attrs.max_threads_per_block, attrs.static_smem_bytes};
  PF_TRY(validate_launch(function.name(), config, device, limits));
  const auto& d = function.driver();
  if (config.dynamic_smem_bytes > attrs.max_dynamic_smem_bytes) {
    PF_TRY(function.set_max_dynamic_smem(config.dynamic_smem_bytes));
  }
  CUresult r = d.api().cuLaunchKernel(
      function.handle(), static_cast<unsigned>(config.grid[0]),
      static_cast<unsigned>(config.grid[1]), static_cast<unsigned>(config.grid[2]),
      static_cast<unsigned>(config.block[0]), static_cast<unsigned>(config.block[1]),
      static_cast<unsigned>(config.block[2]), static_cast<unsigned>(config.dynamic_smem_bytes),
      stream, args.kernel_params(), nullptr);
  return d.check(r, "cuLaunchKernel(" + function.name() + ", " + config.describe() + ")");
}

}  // namespace pf::cuda
