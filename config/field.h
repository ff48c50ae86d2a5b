// One configuration key bound to a member of a Config instance: its
// description (for the key reference and error messages) and typed access
// through JSON values, so the TOML file, --set, the environment and a stored
// run record all go through the same conversion and range checks.
#pragma once

#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "config/config.h"

namespace pf {

enum class FieldType { integer, number, boolean, string, string_list, choice, gpus, table };

const char* field_type_name(FieldType type);

//! Inclusive bounds of a numeric key.
struct Range {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
};

struct Field {
  std::string section;  // "endpoint.sampling"
  std::string name;     // "temperature"
  std::string doc;      // one line
  FieldType type = FieldType::string;
  Range range;
  std::vector<std::string> choices;  // FieldType::choice
  bool optional = false;             // may be unset (absent from the file, null in JSON)

  //! Converts, range-checks and stores; null unsets an optional key. The
  //! error message names no location: the caller knows where the value came from.
  std::function<Status(const nlohmann::json&)> set;
  //! The current value; null for an unset optional.
  std::function<nlohmann::json()> get;

  std::string key() const { return section + "." + name; }
};

//! Collects Fields bound to members; describe_fields() is its one user.
class FieldListBuilder {
 public:
  void section(std::string name) { section_ = std::move(name); }

  void add(const char* name, int& member, const char* doc, Range range);
  void add(const char* name, int64_t& member, const char* doc, Range range);
  void add(const char* name, std::optional<int64_t>& member, const char* doc, Range range);
  void add(const char* name, double& member, const char* doc, Range range);
  void add(const char* name, std::optional<double>& member, const char* doc, Range range);
  void add(const char* name, bool& member, const char* doc);
  void add(const char* name, std::string& member, const char* doc);
  void add(const char* name, std::vector<std::string>& member, const char* doc);
  void add(const char* name, GpuSelection& member, const char* doc);
  void add(const char* name, nlohmann::json& table, const char* doc);

  template <class E>
  void add_choice(const char* name, E& member, const char* doc) {
    std::vector<std::string> names(EnumNames<E>::kNames.begin(), EnumNames<E>::kNames.end());
    auto set_index = [&member](size_t i) { member = static_cast<E>(i); };
    auto get_index = [&member] { return static_cast<size_t>(member); };
    add_choice_impl(name, doc, std::move(names), set_index, get_index);
  }

  std::vector<Field> take() { return std::move(fields_); }

 private:
  Field& push(const char* name, const char* doc, FieldType type);
  void add_choice_impl(const char* name, const char* doc, std::vector<std::string> names,
                       std::function<void(size_t)> set_index, std::function<size_t()> get_index);

  std::string section_;
  std::vector<Field> fields_;
};

//! A value as TOML source text: "sm_90" -> "\"sm_90\"", [1, 2], {a = 1}.
std::string toml_literal(const nlohmann::json& value);

}  // namespace pf
