#include "experiments/experiment_spec.h"

#include <sstream>

#include "config/config_loader.h"

namespace pf::experiments {
namespace {

Status flatten_into(const toml::table& table, const std::string& prefix, const std::string& where,
                    std::vector<std::string>& out) {
  for (const auto& [k, node] : table) {
    std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const auto* sub = node.as_table()) {
      PF_TRY(flatten_into(*sub, key, where, out));
      continue;
    }
    if (node.is_date() || node.is_time() || node.is_date_time()) {
      return make_error(ErrorCode::invalid_argument,
                        where + ": " + key + ": dates and times are not configuration values");
    }
    std::ostringstream value;
    node.visit([&](const auto& n) { value << n; });
    out.push_back(key + "=" + value.str());
  }
  return ok_status();
}

}  // namespace

Result<std::vector<std::string>> flatten_sets(const toml::table& table, const std::string& where) {
  std::vector<std::string> out;
  PF_TRY(flatten_into(table, "", where, out));
  return out;
}

Result<Config> config_with_sets(const std::filesystem::path& base_file,
                                const std::vector<std::string>& sets, const std::string& what) {
  ConfigInputs inputs;
  inputs.file = base_file.string();
  inputs.sets = sets;
  auto loaded = load_config(inputs);
  if (!loaded.ok()) return loaded.error().with_context(what);
  return loaded->config;
}

std::filesystem::path resolve_beside(const std::filesystem::path& file,
                                     const std::string& written) {
  std::filesystem::path p(written);
  if (p.is_absolute()) return p;
  std::error_code ec;
  auto beside = file.parent_path() / p;
  if (std::filesystem::exists(beside, ec)) return beside;
  return p;
}

bool is_plain_name(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace pf::experiments
