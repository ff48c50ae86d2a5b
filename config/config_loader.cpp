#include "config/config_loader.h"

#include <algorithm>
#include <cstdlib>

#include "common/fs.h"
#include "common/strings.h"
#include "config/config_fields.h"
#include "config/toml_value.h"

namespace pf {
namespace {

using nlohmann::json;

// Applies one source after another to `out.config`, collecting errors.
class Loader {
 public:
  explicit Loader(LoadedConfig& out) : out_(out), fields_(describe_fields(out.config)) {}

  void load_file(const std::string& path) {
    auto text = read_file(path);
    if (!text.ok()) {
      errors_.push_back(text.error().message);
      return;
    }
    try {
      toml::table root = toml::parse(*text, path);
      walk(root, "");
    } catch (const toml::parse_error& e) {
      const auto& begin = e.source().begin;
      errors_.push_back(path + ":" + std::to_string(begin.line) + ":" +
                        std::to_string(begin.column) +
                        ": TOML syntax error: " + std::string(e.description()));
    }
  }

  void apply_env(const EnvLookup& env) {
    for (const auto& [name, key] : kConfigEnvOverrides) {
      auto value = env(name);
      if (!value) continue;
      assign(*find(key), json(*value), std::string("env ") + name);
    }
  }

  void apply_set(const std::string& assignment) {
    size_t eq = assignment.find('=');
    std::string key(trim(std::string_view(assignment).substr(0, eq)));
    if (eq == std::string::npos || key.empty()) {
      errors_.push_back("--set " + assignment + ": expected section.key=value");
      return;
    }
    std::string_view text = trim(std::string_view(assignment).substr(eq + 1));
    for (auto& f : fields_) {
      if (f.type == FieldType::table && starts_with(key, f.key() + ".")) {
        return set_table_entry(f, key, text);
      }
    }
    Field* field = find(key);
    if (!field) {
      errors_.push_back("--set " + assignment + ": " + unknown_key_message(key));
      return;
    }
    json value = parse_set_value(text);
    // A string key takes the text as written (`model=1.5` means "1.5").
    if (field->type == FieldType::string && !value.is_string()) value = json(std::string(text));
    assign(*field, value, "--set");
  }

  void validate() {
    for (const auto& [key, message] : validate_config(out_.config)) {
      errors_.push_back(out_.source_of(key) + ": " + message);
    }
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  Field* find(const std::string& key) {
    for (auto& f : fields_) {
      if (f.key() == key) return &f;
    }
    return nullptr;
  }

  bool is_section(const std::string& name) const {
    return std::any_of(fields_.begin(), fields_.end(),
                       [&](const Field& f) { return f.section == name; });
  }

  void assign(Field& field, const json& value, const std::string& source) {
    auto st = field.set(value);
    if (!st.ok()) {
      errors_.push_back(source + ": " + field.key() + ": " + st.error().message);
      return;
    }
    out_.sources[field.key()] = source;
  }

  // `--set endpoint.extra.a.b=1` sets one entry inside a free-form table.
  void set_table_entry(Field& field, const std::string& key, std::string_view text) {
    json table = field.get();
    json* node = &table;
    auto path = split(key.substr(field.key().size() + 1), '.');
    for (size_t i = 0; i < path.size(); ++i) {
      if (node->is_null()) *node = json::object();
      if (path[i].empty() || !node->is_object()) {
        errors_.push_back("--set " + key + ": not a path inside the " + field.key() + " table");
        return;
      }
      node = &(*node)[path[i]];
    }
    *node = parse_set_value(text);
    assign(field, table, "--set");
  }

  void walk(const toml::table& table, const std::string& section) {
    for (const auto& [toml_key, node] : table) {
      std::string name(toml_key.str());
      std::string key = section.empty() ? name : section + "." + name;
      std::string where = toml_location(toml_key.source());
      if (Field* field = section.empty() ? nullptr : find(key)) {
        auto value = toml_to_json(node);
        if (!value.ok()) {
          errors_.push_back(toml_location(node.source()) + ": " + key + ": " + value.error().message);
        } else {
          assign(*field, *value, toml_location(node.source()));
        }
      } else if (is_section(key)) {
        if (const toml::table* sub = node.as_table()) {
          walk(*sub, key);
        } else {
          errors_.push_back(where + ": '" + key + "' must be a table ([" + key + "])");
        }
      } else {
        errors_.push_back(where + ": " + unknown_in_section(name, section));
      }
    }
  }

  // Candidates for a misspelt name in `section`: its keys and subsections.
  std::vector<std::string> names_in(const std::string& section) const {
    std::vector<std::string> names;
    for (const auto& s : config_sections()) {
      if (section.empty() && s.find('.') == std::string::npos) names.push_back(s);
      if (!section.empty() && starts_with(s, section + ".")) names.push_back(s.substr(section.size() + 1));
    }
    for (const auto& f : fields_) {
      if (!section.empty() && f.section == section) names.push_back(f.name);
    }
    return names;
  }

  std::string home_of(const std::string& name) const {
    for (const auto& f : fields_) {
      if (f.name == name) return f.section;
    }
    return "";
  }

  std::string unknown_in_section(const std::string& name, const std::string& section) const {
    std::string near = closest_match(name, names_in(section));
    std::string home = home_of(name);
    if (section.empty()) {
      std::string msg = "unknown section [" + name + "]";
      if (!near.empty()) return msg + " (did you mean [" + near + "]?)";
      if (!home.empty()) return "key '" + name + "' outside a section (it belongs in [" + home + "])";
      return msg + " (sections: " + join(names_in(""), ", ") + ")";
    }
    std::string msg = "unknown key '" + name + "' in [" + section + "]";
    if (!near.empty()) return msg + " (did you mean '" + near + "'?)";
    if (!home.empty()) return msg + " (it belongs in [" + home + "])";
    return msg;
  }

  std::string unknown_key_message(const std::string& key) const {
    if (is_section(key)) return "'" + key + "' is a section; use " + key + ".KEY=VALUE";
    std::vector<std::string> keys;
    for (const auto& f : fields_) keys.push_back(f.key());
    std::string msg = "unknown key '" + key + "'";
    std::string near = closest_match(key, keys);
    if (!near.empty()) return msg + " (did you mean '" + near + "'?)";
    std::string name = key.substr(key.rfind('.') + 1);  // npos + 1 == 0: the whole key
    std::string home = home_of(name);
    if (!home.empty()) return msg + " (did you mean '" + home + "." + name + "'?)";
    return msg;
  }

  LoadedConfig& out_;
  std::vector<Field> fields_;
  std::vector<std::string> errors_;
};

}  // namespace

std::optional<std::string> process_env(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

std::string LoadedConfig::source_of(const std::string& key) const {
  auto it = sources.find(key);
  return it == sources.end() ? "default" : it->second;
}

Result<LoadedConfig> load_config(const ConfigInputs& inputs) {
  LoadedConfig out;
  out.file = inputs.file;
  if (inputs.base) {
    out.config = *inputs.base;
    for (const auto& f : describe_fields(out.config)) out.sources[f.key()] = inputs.base_source;
  }
  std::vector<std::string> errors;
  {
    Loader loader(out);
    if (!inputs.file.empty()) loader.load_file(inputs.file);
    if (inputs.env) loader.apply_env(inputs.env);
    for (const auto& s : inputs.sets) loader.apply_set(s);
    // Cross-key checks on a config with bad values would only add noise.
    if (loader.errors().empty()) loader.validate();
    errors = loader.errors();
  }
  if (!errors.empty()) return make_error(ErrorCode::invalid_argument, join(errors, "\n"));
  return out;
}

}  // namespace pf
