#include "evaluator/protocol/result_score.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace pf::protocol {
namespace {

using nlohmann::json;

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

json curve(const std::array<double, kNumToleranceLevels>& es, const ProtocolOptions& o) {
  json c = json::array();
  for (int t = o.tolerance_min; t <= o.tolerance_max; ++t) {
    c.push_back({{"t", t}, {"es", es[level_index(t)]}});
  }
  return c;
}

json stats_json(const std::vector<VariantOutcome>& outcomes) {
  if (outcomes.empty()) return nullptr;
  ScoreStats s = score_stats(outcomes);
  json fast = json::object();
  for (size_t i = 0; i < kFastP.size(); ++i) {
    char key[16];
    std::snprintf(key, sizeof key, "%g", kFastP[i]);
    fast[key] = s.fast_p[i];
  }
  return {{"variants", s.variants},
          {"correct_rate", s.correct_rate},
          {"geomean_speedup",
           s.geomean_speedup_correct ? json(*s.geomean_speedup_correct) : json(nullptr)},
          {"fast_p", fast}};
}

}  // namespace

std::vector<VariantOutcome> variant_outcomes(const json& result, bool hidden) {
  std::vector<VariantOutcome> out;
  auto vs = result.find("variants");
  if (vs == result.end() || !vs->is_array()) return out;
  for (const auto& v : *vs) {
    if (!v.is_object() || v.value("hidden", false) != hidden) continue;
    if (!v.value("evaluated", false) || v.contains("skipped")) continue;
    VariantOutcome o;
    o.name = str(v, "name");
    o.hidden = hidden;
    if (auto c = parse_failure_class(str(v, kFailureClassField))) o.failure = *c;
    auto lvl = v.find("first_passing_level");
    const bool has_level = lvl != v.end() && lvl->is_number_integer();
    // `accuracy` with a level: close above t = -5, scored per level.
    if (o.failure == FailureClass::accuracy && has_level) o.failure = FailureClass::none;
    if (has_level) o.first_passing_level = lvl->get<int>();
    // Absent in results recorded before it was measured: the mode falls back
    // to first_passing_level.
    if (auto rc = v.find("first_passing_level_rtol_candidate"); rc != v.end()) {
      o.first_passing_level_rtol_candidate =
          rc->is_number_integer() ? rc->get<int>() : kMaxToleranceLevel + 1;
    }
    if (v.value("unstable", false)) o.failure = FailureClass::unstable;
    auto s = v.find("speedup");
    if (s != v.end() && s->is_number()) o.speedup = s->get<double>();
    // A correct variant without a measured speedup cannot be scored as faster
    // or slower than eager: it counts as failed at every level.
    if (o.failure == FailureClass::none && o.speedup <= 0)
      o.first_passing_level = kMaxToleranceLevel + 1;
    out.push_back(o);
  }
  return out;
}

void score_result(json& result, const ProtocolOptions& options) {
  const double b = options.scoring.b;
  result["b"] = b;
  result["scoring_mode"] = scoring_mode_name(options.scoring.mode);
  const bool whole_failure =
      result.contains(kFailureClassField) && result[kFailureClassField].is_string();

  // Flags: static ones stay; variant flags are added once per name.
  std::set<std::string> hack, task;
  if (result.contains("hack_flags") && result["hack_flags"].is_array()) {
    for (const auto& f : result["hack_flags"]) {
      if (f.is_string()) hack.insert(f.get<std::string>());
    }
  }
  json detailed = json::array();
  bool incomplete = false, unstable = false;
  int hidden_count = 0;
  for (const auto& v : result.value("variants", json::array())) {
    if (!v.is_object()) continue;
    hidden_count += v.value("hidden", false) ? 1 : 0;
    if (!whole_failure && !v.value("evaluated", false)) incomplete = true;
    if (!v.value("hidden", false) && v.value("unstable", false)) unstable = true;
    for (const auto& f : v.value("flags", json::array())) {
      std::string name = str(f, "flag");
      if (name.empty()) continue;
      (f.value("blames_model", true) ? hack : task).insert(name);
      detailed.push_back({{"flag", name},
                          {"variant", str(v, "name")},
                          {"hidden", v.value("hidden", false)},
                          {"evidence", str(f, "evidence")}});
    }
  }
  result["hack_flags"] = json(std::vector<std::string>(hack.begin(), hack.end()));
  result["task_flags"] = json(std::vector<std::string>(task.begin(), task.end()));
  result["flags"] = detailed;
  result["unstable"] = unstable;
  result["incomplete"] = incomplete;

  const bool graphnet = options.scoring.mode == ScoringMode::graphnet;
  for (bool hidden : {false, true}) {
    const char* as_key = hidden ? "hidden_as" : "as";
    const char* curve_key = hidden ? "hidden_es_curve" : "es_curve";
    const char* stats_key = hidden ? "hidden_stats" : "stats";
    const char* graphnet_key = hidden ? "hidden_graphnet_score" : "graphnet_score";
    std::vector<VariantOutcome> outcomes = variant_outcomes(result, hidden);
    if (hidden && hidden_count == 0) {
      result[as_key] = nullptr;
      result[curve_key] = nullptr;
      result[stats_key] = nullptr;
      if (graphnet) result[graphnet_key] = nullptr;
      continue;
    }
    if (whole_failure) {
      // Every variant fails with the task's class: b everywhere unless the
      // mode forgives that class (GraphNet: from t = 3).
      VariantOutcome all;
      all.failure =
          parse_failure_class(str(result, "failure_class")).value_or(FailureClass::compile_fail);
      std::optional<Score> score;
      if (forgiven_from(all.failure, options.scoring.mode)) {
        score = score_variants({all}, options.scoring);
      } else {
        score.emplace();
        score->es.fill(b);
        score->as = b;
        score->graphnet_score = std::log10(b);
      }
      result[as_key] = score->as;
      result[curve_key] = curve(score->es, options);
      result[stats_key] = nullptr;
      if (graphnet) result[graphnet_key] = score->graphnet_score;
      continue;
    }
    std::optional<Score> score = score_variants(outcomes, options.scoring);
    result[as_key] = score ? json(score->as) : json(nullptr);
    result[curve_key] = score ? curve(score->es, options) : json(nullptr);
    if (graphnet) result[graphnet_key] = score ? json(score->graphnet_score) : json(nullptr);
    result[stats_key] = stats_json(outcomes);
    if (!hidden) {
      json st = result[stats_key];
      result["correct_rate"] = st.is_null() ? json(nullptr) : st["correct_rate"];
      result["geomean_speedup"] = st.is_null() ? json(nullptr) : st["geomean_speedup"];
    }
  }
}

}  // namespace pf::protocol
