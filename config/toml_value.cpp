#include "config/toml_value.h"

#include <string>

namespace pf {

using nlohmann::json;

Result<json> toml_to_json(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return json(node.as_string()->get());
    case toml::node_type::integer: return json(node.as_integer()->get());
    case toml::node_type::floating_point: return json(node.as_floating_point()->get());
    case toml::node_type::boolean: return json(node.as_boolean()->get());
    case toml::node_type::array: {
      json out = json::array();
      for (const auto& element : *node.as_array()) {
        PF_ASSIGN(json value, toml_to_json(element));
        out.push_back(std::move(value));
      }
      return out;
    }
    case toml::node_type::table: {
      json out = json::object();
      for (const auto& [key, value] : *node.as_table()) {
        PF_ASSIGN(out[std::string(key.str())], toml_to_json(value));
      }
      return out;
    }
    default:
      return make_error(ErrorCode::invalid_argument,
                        "dates and times are not supported in passforge configs");
  }
}

json parse_set_value(std::string_view text) {
  if (text.empty()) return nullptr;
  try {
    toml::table doc = toml::parse("v = " + std::string(text));
    const toml::node* v = doc.get("v");
    if (v && doc.size() == 1) {
      auto converted = toml_to_json(*v);
      if (converted.ok()) return *converted;
    }
  } catch (const toml::parse_error&) {
    // Not TOML syntax: the text itself is the (string) value.
  }
  return json(std::string(text));
}

std::string toml_location(const toml::source_region& region) {
  std::string file = region.path ? *region.path : std::string("<config>");
  if (region.begin.line == 0) return file;
  return file + ":" + std::to_string(region.begin.line);
}

}  // namespace pf
