// DeviceLimits as JSON (the field names of DeviceProperties::to_json) and
// back: how a GPU's launch limits reach a CPU worker that dry-runs candidates
// for that GPU (the CPU/GPU split, evaluator/protocol/evaluation_service.h).
#pragma once

#include <nlohmann/json.hpp>

#include "common/result.h"
#include "sandbox/cuda/device_properties.h"

namespace pf::cuda {

nlohmann::json limits_to_json(const DeviceLimits& limits);
//! invalid_argument naming the field when `j` is not limits_to_json's form.
Result<DeviceLimits> limits_from_json(const nlohmann::json& j);

}  // namespace pf::cuda
