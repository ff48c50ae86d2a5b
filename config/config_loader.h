// Loading the effective configuration: defaults < file < environment < --set.
// Every problem (syntax, unknown key, wrong type, out of range, inconsistent
// keys) is collected and reported at once, each naming where the value came
// from (file:line, the environment variable, --set) and the key.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "config/config.h"

namespace pf {

//! Environment variables that override keys (when set and non-empty).
inline const std::vector<std::pair<const char*, const char*>> kConfigEnvOverrides = {
    {"OPENAI_BASE_URL", "endpoint.base_url"},
    {"OPENAI_MODEL", "endpoint.model"},
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

//! The process environment (unset and empty variables are nullopt).
std::optional<std::string> process_env(const std::string& name);

struct ConfigInputs {
  std::string file;               // empty: no file (defaults, environment, --set)
  std::vector<std::string> sets;  // "section.key=value", applied in order
  EnvLookup env = process_env;    // empty: the environment is not consulted
  //! Start from this configuration instead of the defaults (e.g. the one
  //! stored with a run that is resumed, then `sets` on top); every key's
  //! source is then `base_source` until something overrides it.
  std::optional<Config> base;
  std::string base_source = "run record";
};

struct LoadedConfig {
  Config config;
  std::string file;
  //! Where each non-default value came from: "file:line", "env NAME" or "--set".
  std::map<std::string, std::string> sources;

  //! The source of `key`, or "default".
  std::string source_of(const std::string& key) const;
};

//! The error's message lists every problem, one per line.
Result<LoadedConfig> load_config(const ConfigInputs& inputs);

//! Checks across keys (a range check of one key lives in its Field):
//! (key, message) pairs, empty when the config is consistent.
std::vector<std::pair<std::string, std::string>> validate_config(const Config& config);

}  // namespace pf
