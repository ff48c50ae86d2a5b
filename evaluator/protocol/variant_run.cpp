#include "evaluator/protocol/variant_run.h"

#include <algorithm>
#include <cmath>

namespace pf::protocol {
namespace {

using nlohmann::json;

// NaN and infinities are not JSON numbers.
json num(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

json level_json(int level) {
  return level > kMaxToleranceLevel ? json(nullptr) : json(level);
}

json output_json(const OutputReport& o) {
  const OutputComparison& c = o.comparison;
  json j = {
      {"dtype", o.dtype},
      {"shape", o.shape},
      {"shape_ok", c.shape_ok},
      {"dtype_ok", c.dtype_ok},
      {"first_passing_level", level_json(c.first_passing_level)},
      {"first_passing_level_rtol_candidate", level_json(c.first_passing_level_rtol_candidate)},
      {"max_abs_diff", num(c.max_abs_diff)},
      {"mean_abs_diff", num(c.mean_abs_diff)},
      {"max_rel_diff", num(c.max_rel_diff)},
      {"nan_mismatches", c.nan_mismatches},
      {"poisoned", o.poisoned},
      {"first_mismatch", nullptr}};
  if (c.first_mismatch >= 0) {
    j["first_mismatch"] = {{"index", format_index(c.first_mismatch, o.shape)},
                           {"candidate", num(c.first_mismatch_candidate)},
                           {"expected", num(c.first_mismatch_expected)}};
  }
  return j;
}

json side_json(const SideSummary& s) {
  json j = {{"device_median_ms", s.device_median_ms},
            {"device_iqr_ms", s.device_iqr_ms},
            {"e2e_median_ms", s.e2e_median_ms ? json(*s.e2e_median_ms) : json(nullptr)},
            {"e2e_iqr_ms", s.e2e_iqr_ms ? json(*s.e2e_iqr_ms) : json(nullptr)},
            {"unstable", s.unstable}};
  if (!s.device_samples.empty()) {
    j["device_samples_ms"] = s.device_samples;
    j["e2e_samples_ms"] = s.e2e_samples;
  }
  return j;
}

// The output with the largest error: what the feedback's one-line summary shows.
const OutputReport* worst_output(const std::vector<OutputReport>& outputs) {
  const OutputReport* worst = nullptr;
  for (const auto& o : outputs) {
    if (worst == nullptr ||
        o.comparison.first_passing_level > worst->comparison.first_passing_level) {
      worst = &o;
    }
  }
  return worst;
}

}  // namespace

int VariantRun::first_passing_level_rtol_candidate() const {
  if (failure != FailureClass::none && failure != FailureClass::accuracy) {
    return kMaxToleranceLevel + 1;
  }
  int level = kMinToleranceLevel;
  for (const auto* set : {&outputs, &recheck}) {
    for (const auto& o : *set) {
      level = std::max(level, o.comparison.first_passing_level_rtol_candidate);
    }
  }
  return level;
}

void VariantRun::merge_into(json& v) const {
  v["evaluated"] = true;
  if (failure != FailureClass::none) {
    v[kFailureClassField] = failure_class_name(failure);
    v["message"] = message;
  } else if (skipped.empty() && first_passing_level > kBaselineToleranceLevel) {
    v[kFailureClassField] = failure_class_name(FailureClass::accuracy);
    v["message"] = message;
  } else if (unstable) {
    v[kFailureClassField] = failure_class_name(FailureClass::unstable);
  }
  if (!skipped.empty()) v["skipped"] = skipped;
  if (!inputs_redrawn.empty()) v["inputs_redrawn"] = inputs_redrawn;
  v["correct"] = correct();
  v["first_passing_level"] = level_json(first_passing_level);
  v["first_passing_level_rtol_candidate"] = level_json(first_passing_level_rtol_candidate());
  // Measured whenever the outputs are close at some level (ES_t uses it there).
  v["speedup"] = speedup > 0 ? json(speedup) : json(nullptr);
  v["unstable"] = unstable;
  v["deterministic"] = deterministic;
  json outs = json::array();
  for (const auto& o : outputs) outs.push_back(output_json(o));
  v["outputs"] = outs;
  json re = json::array();
  for (const auto& o : recheck) re.push_back(output_json(o));
  v["recheck"] = re;
  // Headline magnitudes (worst output over both input sets) for compact reports.
  std::vector<OutputReport> all = outputs;
  all.insert(all.end(), recheck.begin(), recheck.end());
  // Only where the outputs were compared in full (not after an integrity,
  // shape, dtype or run-time failure).
  const bool compared = failure == FailureClass::none || failure == FailureClass::accuracy;
  if (const OutputReport* w = compared ? worst_output(all) : nullptr) {
    json o = output_json(*w);
    v["max_abs_diff"] = o["max_abs_diff"];
    v["max_rel_diff"] = o["max_rel_diff"];
    if (!o["first_mismatch"].is_null()) {
      const auto& fm = o["first_mismatch"];
      char buf[160];
      std::snprintf(buf, sizeof buf, "at %s: got %.6g, expected %.6g",
                    fm["index"].get<std::string>().c_str(), w->comparison.first_mismatch_candidate,
                    w->comparison.first_mismatch_expected);
      v["first_mismatch"] = buf;
    }
  }
  if (timing) {
    v["timing"] = {
        {"candidate", side_json(timing->candidate)},
        {"eager", side_json(timing->eager)},
        {"clock", timing->clock},
        {"batched", timing->batched},
        {"trials", timing->trials},
        {"eager_trials", timing->eager_trials},
        {"eager_prior_trials", timing->eager_prior_trials},
        {"eager_prior_dropped", timing->eager_prior_dropped},
        {"eager_prior_ratio",
         timing->eager_prior_ratio ? json(*timing->eager_prior_ratio) : json(nullptr)},
        {"eager_pool_emptied", timing->eager_pool_emptied},
        {"max_trials", timing->max_trials},
        {"precision", std::isfinite(timing->precision) ? json(timing->precision) : json(nullptr)},
        {"precision_target", timing->precision_target},
        {"stopped_early", timing->stopped_early},
        {"warmup", timing->warmup},
        {"attempts", timing->attempts},
        {"checks", timing->checks},
        {"reduced", timing->reduced},
        {"launch", timing->launch}};
    if (!timing->graph_fallback.empty()) v["timing"]["graph_fallback"] = timing->graph_fallback;
  }
  json fl = json::array();
  for (const auto& f : flags) {
    fl.push_back({{"flag", f.flag}, {"evidence", f.evidence}, {"blames_model", f.blames_model}});
  }
  v["flags"] = fl;
  json tr = json::array();
  for (const auto& t : trivial) {
    tr.push_back({{"kind", t.kind},
                  {"applicable", t.applicable},
                  {"first_passing_level", level_json(t.level)},
                  {"detail", t.detail}});
  }
  v["trivial_guard"] = tr;
  v["roofline"] = roofline.to_json();
  v["phases_ms"] = phase_ms;
  v["host_traffic"] = {{"downloaded_bytes", downloaded_bytes}, {"avoided_bytes", avoided_bytes}};
}

}  // namespace pf::protocol
