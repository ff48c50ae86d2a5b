// TOML values as JSON (internal to config/): Fields take JSON, so the file,
// --set and stored run records share one conversion path.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>
#include <toml++/toml.h>

#include "common/result.h"

namespace pf {

//! Converts a TOML value; dates and times are rejected (no key takes one).
Result<nlohmann::json> toml_to_json(const toml::node& node);

//! The value part of `--set key=value`: TOML syntax ("3", "true", "[0, 1]",
//! "{ a = 1 }", "\"x\""), or else the bare text as a string, so
//! `--set endpoint.model=gpt-4o` needs no quotes. Empty text is null.
nlohmann::json parse_set_value(std::string_view text);

//! "file:line" of a TOML source region ("file" when no line is known).
std::string toml_location(const toml::source_region& region);

}  // namespace pf
