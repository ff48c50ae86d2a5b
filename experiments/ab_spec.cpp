#include "experiments/ab_spec.h"

#include <toml++/toml.h>

#include <set>

#include "common/fs.h"
#include "common/strings.h"
#include "experiments/experiment_spec.h"

namespace pf::experiments {
namespace {

// Sections an arm may change; the rest must be shared for the pairing to hold.
bool arm_may_set(const std::string& assignment) {
  for (const char* section : {"endpoint.", "agent.", "prompts."}) {
    if (starts_with(assignment, section)) return true;
  }
  return false;
}

std::string toml_quote(const std::string& s) {
  std::ostringstream out;
  out << toml::value<std::string>(s);
  return out.str();
}

}  // namespace

Result<AbSpec> load_ab_spec(const std::filesystem::path& file) {
  auto text = read_file(file);
  if (!text.ok()) return text.error().with_context("experiment file");
  return parse_ab_spec(*text, file);
}

Result<AbSpec> parse_ab_spec(const std::string& text, const std::filesystem::path& file) {
  const std::string where = file.empty() ? std::string("experiment") : file.string();
  toml::table root;
  try {
    root = toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    return make_error(ErrorCode::parse_error, where + ":" + std::to_string(e.source().begin.line) +
                                                  ": " + std::string(e.description()));
  }
  AbSpec spec;
  spec.file = file;
  spec.text = text;
  static const std::set<std::string> known = {"base_config",      "id",  "output_dir", "tasks",
                                              "samples_per_task", "set", "arms"};
  for (const auto& [k, node] : root) {
    if (!known.count(std::string(k.str()))) {
      return make_error(ErrorCode::invalid_argument,
                        where + ": unknown key '" + std::string(k.str()) +
                            "' (expected base_config, id, output_dir, tasks, samples_per_task, "
                            "set, arms)");
    }
  }
  auto base = root["base_config"].value<std::string>();
  if (!base || base->empty()) {
    return make_error(ErrorCode::invalid_argument,
                      where + ": base_config (the configuration the arms start from) is missing");
  }
  spec.base_config = resolve_beside(file, *base);
  spec.id = root["id"].value_or(std::string());
  if (!spec.id.empty() && !is_plain_name(spec.id)) {
    return make_error(ErrorCode::invalid_argument,
                      where + ": id '" + spec.id + "' may use only letters, digits, '_' and '-'");
  }
  spec.output_dir = root["output_dir"].value_or(std::string());
  if (auto* tasks = root["tasks"].as_array()) {
    for (const auto& t : *tasks) {
      auto s = t.value<std::string>();
      if (!s) return make_error(ErrorCode::invalid_argument, where + ": tasks must be strings");
      spec.tasks.push_back(*s);
    }
  }
  if (root.contains("samples_per_task")) {
    auto n = root["samples_per_task"].value<int64_t>();
    if (!n || *n < 1 || *n > 100000) {
      return make_error(ErrorCode::invalid_argument,
                        where + ": samples_per_task must be an integer >= 1");
    }
    spec.samples_per_task = static_cast<int>(*n);
  }
  if (auto* set = root["set"].as_table()) {
    PF_ASSIGN(spec.common_sets, flatten_sets(*set, where + ": [set]"));
  }
  auto* arms = root["arms"].as_array();
  if (arms == nullptr || arms->size() < 2) {
    return make_error(ErrorCode::invalid_argument,
                      where + ": an experiment needs two or more [[arms]] (name and set)");
  }
  std::set<std::string> names;
  for (size_t i = 0; i < arms->size(); ++i) {
    const auto* table = (*arms)[i].as_table();
    std::string at = where + ": arms[" + std::to_string(i) + "]";
    if (table == nullptr) return make_error(ErrorCode::invalid_argument, at + " is not a table");
    AbArmSpec arm;
    arm.name = (*table)["name"].value_or(std::string());
    if (!is_plain_name(arm.name)) {
      return make_error(ErrorCode::invalid_argument,
                        at + ": name must be letters, digits, '_' or '-' (got '" + arm.name + "')");
    }
    if (!names.insert(arm.name).second) {
      return make_error(ErrorCode::invalid_argument, at + ": arm name '" + arm.name + "' repeats");
    }
    for (const auto& [k, node] : *table) {
      if (k.str() != "name" && k.str() != "set") {
        return make_error(ErrorCode::invalid_argument,
                          at + ": unknown key '" + std::string(k.str()) + "' (expected name, set)");
      }
    }
    if (const auto* set = (*table)["set"].as_table()) {
      PF_ASSIGN(arm.sets, flatten_sets(*set, at + " (" + arm.name + ")"));
    }
    for (const auto& s : arm.sets) {
      if (!arm_may_set(s)) {
        return make_error(ErrorCode::invalid_argument,
                          at + " (" + arm.name + "): " + s.substr(0, s.find('=')) +
                              ": arms may change only [endpoint], [agent] and [prompts] keys; "
                              "tasks, samples, seeds and evaluation are shared so results pair up "
                              "(put shared keys under [set])");
      }
    }
    spec.arms.push_back(std::move(arm));
  }
  return spec;
}

Result<Config> arm_config(const AbSpec& spec, const AbArmSpec& arm) {
  std::vector<std::string> sets = spec.common_sets;
  if (!spec.tasks.empty()) {
    std::string list = "[";
    for (size_t i = 0; i < spec.tasks.size(); ++i)
      list += (i ? ", " : "") + toml_quote(spec.tasks[i]);
    sets.push_back("run.tasks=" + list + "]");
  }
  if (spec.samples_per_task > 0) {
    sets.push_back("run.samples_per_task=" + std::to_string(spec.samples_per_task));
  }
  if (!spec.output_dir.empty()) sets.push_back("run.output_dir=" + toml_quote(spec.output_dir));
  sets.insert(sets.end(), arm.sets.begin(), arm.sets.end());
  return config_with_sets(spec.base_config, sets, "arm " + arm.name);
}

}  // namespace pf::experiments
