// Checks that involve more than one key, or a key's shape beyond its type.
#include <algorithm>
#include <cctype>
#include <regex>

#include "config/config_loader.h"

namespace pf {
namespace {

// Request-body keys passforge sets itself; extra must not fight over them.
constexpr const char* kOwnedBodyKeys[] = {"model", "messages", "tools", "tool_choice", "stream"};
constexpr const char* kSamplingBodyKeys[] = {"temperature", "top_p", "max_tokens", "seed", "stop"};

bool is_name(const std::string& s) {
  static const std::regex kName("[A-Za-z0-9][A-Za-z0-9._-]*");
  return std::regex_match(s, kName);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> validate_config(const Config& c) {
  std::vector<std::pair<std::string, std::string>> out;
  auto fail = [&out](const char* key, std::string message) {
    out.emplace_back(key, std::string(key) + ": " + std::move(message));
  };

  const auto& e = c.endpoint;
  if (!e.base_url.empty()) {
    if (!e.base_url.starts_with("http://") && !e.base_url.starts_with("https://")) {
      fail("endpoint.base_url", "must start with http:// or https://, got '" + e.base_url + "'");
    }
    if (e.model.empty()) {
      fail("endpoint.model",
           "is empty but endpoint.base_url is set: name the model (endpoint.model, OPENAI_MODEL or "
           "--set endpoint.model=NAME)");
    }
  }
  static const std::regex kEnvName("[A-Za-z_][A-Za-z0-9_]*");
  if (!std::regex_match(e.api_key_env, kEnvName)) {
    fail("endpoint.api_key_env",
         "must be the NAME of an environment variable such as OPENAI_API_KEY (the key itself "
         "never goes in the config; the value is not echoed here)");
  }
  if (e.backoff_initial_s > e.backoff_max_s) {
    fail("endpoint.backoff_max_s", "must not be below endpoint.backoff_initial_s");
  }
  for (const auto& [name, value] : e.headers.items()) {
    if (!value.is_string() || value.get<std::string>().find_first_of("\r\n") != std::string::npos) {
      fail("endpoint.headers", "header '" + name + "' must be a one-line string");
    }
    if (name.empty() || name.find_first_of(":\r\n ") != std::string::npos) {
      fail("endpoint.headers", "'" + name + "' is not an HTTP header name");
    }
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    if (lower == "authorization") {
      fail("endpoint.headers", "may not set Authorization: the key comes from endpoint.api_key_env");
    }
  }
  for (const char* k : kOwnedBodyKeys) {
    if (e.extra.contains(k)) fail("endpoint.extra", std::string("may not set '") + k + "': passforge sets it");
  }
  for (const char* k : kSamplingBodyKeys) {
    if (e.extra.contains(k)) {
      fail("endpoint.extra", std::string("may not set '") + k + "': use endpoint.sampling." + k);
    }
  }
  if (std::any_of(e.sampling.stop.begin(), e.sampling.stop.end(),
                  [](const std::string& s) { return s.empty(); })) {
    fail("endpoint.sampling.stop", "empty stop sequences are not allowed");
  }

  const auto& v = c.evaluator;
  if (v.tolerance_min > v.tolerance_max) {
    fail("evaluator.tolerance_max", "must not be below evaluator.tolerance_min");
  }
  static const std::regex kArch("(sm|compute)_[0-9]{2,3}[af]?");
  if (!std::regex_match(v.gpu_arch, kArch)) {
    fail("evaluator.gpu_arch", "must look like sm_90 (or compute_90, sm_90a), got '" + v.gpu_arch + "'");
  }

  const auto& r = c.run;
  if (r.tasks.empty() || std::any_of(r.tasks.begin(), r.tasks.end(),
                                     [](const std::string& t) { return t.empty(); })) {
    fail("run.tasks", "needs at least one task id, glob or directory, and no empty entries");
  }
  if (r.output_dir.empty()) fail("run.output_dir", "must not be empty");
  if (!r.run_id.empty() && !is_name(r.run_id)) {
    fail("run.run_id", "must be a plain directory name (letters, digits, . _ -), got '" + r.run_id + "'");
  }
  if (r.shard_index >= r.shard_count) {
    fail("run.shard_index", "must be below run.shard_count (" + std::to_string(r.shard_count) +
                                "), got " + std::to_string(r.shard_index));
  }
  if (!is_name(c.prompts.variant)) {
    fail("prompts.variant",
         "must be a plain directory name (letters, digits, . _ -), got '" + c.prompts.variant + "'");
  }
  if (c.prompts.dir.empty()) fail("prompts.dir", "must not be empty");
  return out;
}

}  // namespace pf
