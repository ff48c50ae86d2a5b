// The shared part of experiment files (`passforge ab`, `passforge improve`):
// a base configuration file plus configuration overrides written as TOML
// tables of the same keys `--set` takes. Nested tables are flattened, so
// `[arms.set] "prompts.variant" = "concise"` and `[arms.set.prompts]
// variant = "concise"` mean the same.
#pragma once

#include <toml++/toml.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/config.h"

namespace pf::experiments {

//! "section.key=value" assignments (value in TOML syntax) from a table;
//! `where` names the table in errors.
Result<std::vector<std::string>> flatten_sets(const toml::table& table, const std::string& where);

//! Defaults < base file < environment < `sets` (in order); the error lists
//! every problem, prefixed with `what` (e.g. "arm concise").
Result<Config> config_with_sets(const std::filesystem::path& base_file,
                                const std::vector<std::string>& sets, const std::string& what);

//! A path written in an experiment file: relative to the file's directory
//! when that exists, else as written (relative to the working directory).
std::filesystem::path resolve_beside(const std::filesystem::path& file, const std::string& written);

//! Ids, run ids and arm names: [A-Za-z0-9_-]+ (they become parts of episode
//! ids and directory names).
bool is_plain_name(const std::string& s);

}  // namespace pf::experiments
