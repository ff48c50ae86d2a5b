// The configuration as JSON: the provenance copy stored with every run, and
// the way back when a run is resumed from its record.
#pragma once

#include <nlohmann/json.hpp>

#include "common/result.h"
#include "config/config.h"

namespace pf {

//! {"endpoint": {..., "sampling": {...}, "extra": {...}}, "agent": {...}, ...};
//! unset optional keys are null. No secrets: the API key is never in Config.
nlohmann::json config_to_json(const Config& config);

//! The inverse of config_to_json, with the same type and range checks as the
//! TOML loader (then validate_config). Missing keys keep their defaults, so
//! a record from an older passforge still loads; unknown keys are errors.
Result<Config> config_from_json(const nlohmann::json& json);

}  // namespace pf
