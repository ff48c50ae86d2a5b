#include "experiments/improve_spec.h"

#include <toml++/toml.h>

#include <set>

#include "common/fs.h"
#include "experiments/experiment_spec.h"

namespace pf::experiments {
namespace {

Result<std::vector<std::string>> string_list(const toml::table& root, const char* key,
                                             const std::string& where) {
  std::vector<std::string> out;
  const auto* array = root[key].as_array();
  if (array == nullptr) return out;
  for (const auto& node : *array) {
    auto s = node.value<std::string>();
    if (!s) return make_error(ErrorCode::invalid_argument, where + ": " + key + " must be strings");
    out.push_back(*s);
  }
  return out;
}

Status check_keys(const toml::table& table, const std::set<std::string>& known,
                  const std::string& where) {
  for (const auto& [k, node] : table) {
    if (!known.count(std::string(k.str()))) {
      std::string list;
      for (const auto& key : known) list += (list.empty() ? "" : ", ") + key;
      return make_error(
          ErrorCode::invalid_argument,
          where + ": unknown key '" + std::string(k.str()) + "' (expected " + list + ")");
    }
  }
  return ok_status();
}

template <typename T>
Status read_number(const toml::table& table, const char* key, T& out, double lo, double hi,
                   const std::string& where) {
  if (!table.contains(key)) return ok_status();
  auto v = table[key].value<double>();
  if (!v || *v < lo || *v > hi) {
    return make_error(ErrorCode::invalid_argument, where + ": " + key + " must be a number in " +
                                                       std::to_string(lo) + " .. " +
                                                       std::to_string(hi));
  }
  out = static_cast<T>(*v);
  return ok_status();
}

}  // namespace

Result<ImproveSpec> load_improve_spec(const std::filesystem::path& file) {
  auto text = read_file(file);
  if (!text.ok()) return text.error().with_context("improve file");
  return parse_improve_spec(*text, file);
}

Result<ImproveSpec> parse_improve_spec(const std::string& text, const std::filesystem::path& file) {
  const std::string where = file.empty() ? std::string("improve") : file.string();
  toml::table root;
  try {
    root = toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    return make_error(ErrorCode::parse_error, where + ":" + std::to_string(e.source().begin.line) +
                                                  ": " + std::string(e.description()));
  }
  PF_TRY(check_keys(
      root,
      {"base_config", "id", "output_dir", "rounds", "train_tasks", "eval_tasks", "samples_per_task",
       "eval_samples_per_task", "set", "selection", "exemplars", "training"},
      where));
  ImproveSpec spec;
  spec.file = file;
  spec.text = text;
  auto base = root["base_config"].value<std::string>();
  if (!base || base->empty()) {
    return make_error(ErrorCode::invalid_argument, where + ": base_config is missing");
  }
  spec.base_config = resolve_beside(file, *base);
  spec.id = root["id"].value_or(std::string());
  if (!spec.id.empty() && !is_plain_name(spec.id)) {
    return make_error(ErrorCode::invalid_argument,
                      where + ": id '" + spec.id + "' may use only letters, digits, '_' and '-'");
  }
  spec.output_dir = root["output_dir"].value_or(std::string());
  PF_TRY(read_number(root, "rounds", spec.rounds, 1, 1000, where));
  PF_TRY(read_number(root, "samples_per_task", spec.samples_per_task, 1, 100000, where));
  PF_TRY(read_number(root, "eval_samples_per_task", spec.eval_samples_per_task, 1, 100000, where));
  PF_ASSIGN(spec.train_tasks, string_list(root, "train_tasks", where));
  PF_ASSIGN(spec.eval_tasks, string_list(root, "eval_tasks", where));
  if (spec.train_tasks.empty() || spec.eval_tasks.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      where + ": train_tasks and eval_tasks (held out) must both name tasks");
  }
  if (auto* set = root["set"].as_table()) {
    PF_ASSIGN(spec.common_sets, flatten_sets(*set, where + ": [set]"));
  }
  if (auto* sel = root["selection"].as_table()) {
    PF_TRY(check_keys(*sel, {"min_score", "mode", "top_k"}, where + ": [selection]"));
    PF_TRY(read_number(*sel, "min_score", spec.min_score, -1, 1e9, where + ": [selection]"));
    PF_TRY(read_number(*sel, "top_k", spec.top_k, 1, 1000, where + ": [selection]"));
    std::string mode = (*sel)["mode"].value_or(std::string("best_per_task"));
    if (mode == "best_per_task") {
      spec.selection = SelectionMode::best_per_task;
    } else if (mode == "top_k") {
      spec.selection = SelectionMode::top_k;
    } else {
      return make_error(ErrorCode::invalid_argument,
                        where + ": [selection] mode must be \"best_per_task\" or \"top_k\"");
    }
  }
  if (auto* ex = root["exemplars"].as_table()) {
    PF_TRY(check_keys(*ex, {"count", "max_tokens"}, where + ": [exemplars]"));
    PF_TRY(read_number(*ex, "count", spec.exemplar_count, 0, 100, where + ": [exemplars]"));
    PF_TRY(
        read_number(*ex, "max_tokens", spec.exemplar_max_tokens, 0, 1e7, where + ": [exemplars]"));
  }
  if (auto* tr = root["training"].as_table()) {
    PF_TRY(check_keys(*tr, {"command"}, where + ": [training]"));
    spec.training_command = (*tr)["command"].value_or(std::string());
  }
  std::set<std::string> train(spec.train_tasks.begin(), spec.train_tasks.end());
  for (const auto& t : spec.eval_tasks) {
    if (train.count(t)) {
      return make_error(ErrorCode::invalid_argument, where + ": task " + t +
                                                         " is in both train_tasks and eval_tasks; "
                                                         "held-out tasks must not be trained on");
    }
  }
  return spec;
}

Result<Config> improve_config(const ImproveSpec& spec) {
  std::vector<std::string> sets = spec.common_sets;
  if (!spec.output_dir.empty()) {
    sets.push_back("run.output_dir=" + nlohmann::json(spec.output_dir).dump());
  }
  return config_with_sets(spec.base_config, sets, "improve");
}

}  // namespace pf::experiments
