#include "config/config_json.h"

#include <map>

#include "common/strings.h"
#include "config/config_fields.h"
#include "config/config_loader.h"

namespace pf {

using nlohmann::json;

namespace {

json::json_pointer pointer_of(const Field& f) {
  json::json_pointer ptr;
  for (const auto& part : split(f.section, '.')) ptr /= part;
  return ptr / f.name;
}

// Every key path in `j` that is not inside a known field's value.
void collect_unknown(const json& j, const std::string& prefix, const std::map<std::string, bool>& known,
                     std::vector<std::string>& out) {
  for (const auto& [k, v] : j.items()) {
    std::string key = prefix.empty() ? k : prefix + "." + k;
    auto it = known.find(key);
    if (it != known.end() && it->second) continue;  // a field: its value is opaque here
    if (it != known.end() && v.is_object()) {
      collect_unknown(v, key, known, out);
    } else {
      out.push_back(key);
    }
  }
}

}  // namespace

json config_to_json(const Config& config) {
  Config copy = config;
  json out = json::object();
  for (const auto& f : describe_fields(copy)) out[pointer_of(f)] = f.get();
  return out;
}

Result<Config> config_from_json(const json& j) {
  if (!j.is_object()) return make_error(ErrorCode::invalid_argument, "config JSON must be an object");
  Config config;
  auto fields = describe_fields(config);
  std::map<std::string, bool> known;  // key -> is a field (else a section)
  for (const auto& f : fields) {
    known[f.key()] = true;
    for (std::string s = f.section;; s = s.substr(0, s.rfind('.'))) {
      known.emplace(s, false);
      if (s.find('.') == std::string::npos) break;
    }
  }
  std::vector<std::string> errors;
  std::vector<std::string> unknown;
  collect_unknown(j, "", known, unknown);
  for (const auto& k : unknown) errors.push_back("config JSON: unknown key '" + k + "'");
  for (auto& f : fields) {
    auto ptr = pointer_of(f);
    if (!j.contains(ptr)) continue;
    auto st = f.set(j.at(ptr));
    if (!st.ok()) errors.push_back("config JSON: " + f.key() + ": " + st.error().message);
  }
  if (errors.empty()) {
    for (const auto& [key, message] : validate_config(config)) errors.push_back("config JSON: " + message);
  }
  if (!errors.empty()) return make_error(ErrorCode::invalid_argument, join(errors, "\n"));
  return config;
}

}  // namespace pf
