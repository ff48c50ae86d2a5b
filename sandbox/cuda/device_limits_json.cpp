#include "sandbox/cuda/device_limits_json.h"

#include <algorithm>

namespace pf::cuda {

nlohmann::json limits_to_json(const DeviceLimits& limits) {
  return {{"max_threads_per_block", limits.max_threads_per_block},
          {"max_block_dims", limits.max_block_dims},
          {"max_grid_dims", limits.max_grid_dims},
          {"max_smem_per_block", limits.max_smem_per_block},
          {"max_smem_per_block_optin", limits.max_smem_per_block_optin}};
}

Result<DeviceLimits> limits_from_json(const nlohmann::json& j) {
  auto bad = [](const std::string& field) {
    return make_error(ErrorCode::invalid_argument,
                      "device limits: \"" + field + "\" must be a positive integer (array)");
  };
  auto positive = [](const nlohmann::json& v) {
    return v.is_number_integer() && v.get<int64_t>() > 0;
  };
  if (!j.is_object()) return bad("limits");
  DeviceLimits l;
  for (const char* f :
       {"max_threads_per_block", "max_smem_per_block", "max_smem_per_block_optin"}) {
    if (!positive(j.value(f, nlohmann::json()))) return bad(f);
  }
  l.max_threads_per_block = j["max_threads_per_block"].get<int>();
  l.max_smem_per_block = j["max_smem_per_block"].get<int64_t>();
  l.max_smem_per_block_optin = j["max_smem_per_block_optin"].get<int64_t>();
  for (const char* f : {"max_block_dims", "max_grid_dims"}) {
    const auto& a = j.value(f, nlohmann::json());
    if (!a.is_array() || a.size() != 3 || !std::all_of(a.begin(), a.end(), positive)) return bad(f);
    auto& dims = std::string(f) == "max_block_dims" ? l.max_block_dims : l.max_grid_dims;
    for (size_t i = 0; i < 3; ++i) dims[i] = a[i].get<int>();
  }
  return l;
}

}  // namespace pf::cuda
