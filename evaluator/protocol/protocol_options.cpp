#include "evaluator/protocol/protocol_options.h"

#include <limits>

namespace pf::protocol {
namespace {

using nlohmann::json;

Error bad(const std::string& key, const std::string& what) {
  return make_error(ErrorCode::invalid_argument, "options." + key + " must be " + what);
}

// Reads options[key] into `out` when present and not null.
class Reader {
 public:
  explicit Reader(const json& j) : j_(j) {}

  const json* get(const char* key) const {
    auto it = j_.find(key);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  Status integer(const char* key, int& out, int lo, int hi) const {
    const json* v = get(key);
    if (v == nullptr) return ok_status();
    if (!v->is_number_integer() || v->get<int64_t>() < lo || v->get<int64_t>() > hi) {
      return bad(key, "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    out = v->get<int>();
    return ok_status();
  }
  Status number(const char* key, double& out, double lo, double hi) const {
    const json* v = get(key);
    if (v == nullptr) return ok_status();
    if (!v->is_number() || v->get<double>() < lo || v->get<double>() > hi) {
      return bad(key, "a number in [" + format(lo) + ", " + format(hi) + "]");
    }
    out = v->get<double>();
    return ok_status();
  }
  Status boolean(const char* key, bool& out) const {
    const json* v = get(key);
    if (v == nullptr) return ok_status();
    if (!v->is_boolean()) return bad(key, "true or false");
    out = v->get<bool>();
    return ok_status();
  }
  Status string(const char* key, std::string& out) const {
    const json* v = get(key);
    if (v == nullptr) return ok_status();
    if (!v->is_string()) return bad(key, "a string");
    out = v->get<std::string>();
    return ok_status();
  }

 private:
  static std::string format(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }
  const json& j_;
};

}  // namespace

const char* timing_clock_name(TimingClock clock) {
  return clock == TimingClock::device ? "device" : "end_to_end";
}

Result<ProtocolOptions> options_from_json(const json& options) {
  ProtocolOptions o;
  if (options.is_null()) return o;
  if (!options.is_object()) {
    return make_error(ErrorCode::invalid_argument, "options must be an object");
  }
  Reader r(options);
  PF_TRY(r.integer("warmup", o.warmup, 0, 100000));
  PF_TRY(r.integer("trials", o.trials, 1, 1000000));
  PF_TRY(r.number("timing_precision", o.timing_precision, 0, 1));
  PF_TRY(r.integer("min_trials", o.min_trials, 1, 1000000));
  PF_TRY(r.integer("baseline_min_trials", o.baseline_min_trials, 1, 1000000));
  PF_TRY(r.boolean("baseline_pool", o.baseline_pool));
  PF_TRY(r.number("timing_confidence", o.timing_confidence, 0.5, 0.999));
  PF_TRY(r.boolean("l2_flush", o.l2_flush));
  PF_TRY(r.boolean("graph_replay", o.graph_replay));
  std::string clock = timing_clock_name(o.timing_clock);
  PF_TRY(r.string("timing_clock", clock));
  if (clock != "device" && clock != "end_to_end") return bad("timing_clock", "device or end_to_end");
  o.timing_clock = clock == "device" ? TimingClock::device : TimingClock::end_to_end;
  PF_TRY(r.number("iqr_threshold", o.iqr_threshold, 0, 100));
  PF_TRY(r.integer("remeasure", o.remeasure, 0, 100));
  PF_TRY(r.number("b", o.scoring.b, 1e-9, 1));
  PF_TRY(r.number("p", o.scoring.p, 0, 100));
  std::string mode = scoring_mode_name(o.scoring.mode);
  PF_TRY(r.string("scoring_mode", mode));
  std::optional<ScoringMode> parsed = parse_scoring_mode(mode);
  if (!parsed) return bad("scoring_mode", "strict, passnet or graphnet");
  o.scoring.mode = *parsed;
  PF_TRY(r.integer("tolerance_min", o.tolerance_min, kMinToleranceLevel, kMaxToleranceLevel));
  PF_TRY(r.integer("tolerance_max", o.tolerance_max, kMinToleranceLevel, kMaxToleranceLevel));
  if (o.tolerance_max < o.tolerance_min) {
    return bad("tolerance_max", "at least options.tolerance_min");
  }
  std::string rule = o.std_zero_rule == ZeroStdRule::graphnet ? "graphnet" : "passforge";
  PF_TRY(r.string("std_zero_rule", rule));
  if (rule != "passforge" && rule != "graphnet")
    return bad("std_zero_rule", "passforge or graphnet");
  o.std_zero_rule = rule == "graphnet" ? ZeroStdRule::graphnet : ZeroStdRule::passforge;

  if (const json* s = r.get("seed"); s != nullptr && !s->is_null()) {
    if (!s->is_number_integer()) return bad("seed", "an integer");
    o.seed =
        s->is_number_unsigned() ? s->get<uint64_t>() : static_cast<uint64_t>(s->get<int64_t>());
  }
  PF_TRY(r.boolean("determinism_rerun", o.determinism_rerun));
  PF_TRY(r.integer("recheck_cycle", o.recheck_cycle, 2, 1000));
  PF_TRY(r.boolean("repoison_every_trial", o.repoison_every_trial));
  PF_TRY(r.integer("trivial_guard_level", o.trivial_guard_level, kMinToleranceLevel,
                   kMaxToleranceLevel));
  PF_TRY(r.number("implausible_fraction", o.implausible_fraction, 0, 1));
  PF_TRY(r.number("timing_budget_s", o.timing_budget_s, 0.01, 86400));
  PF_TRY(r.boolean("timing_samples", o.timing_samples));
  PF_TRY(r.boolean("include_rewritten", o.include_rewritten));
  if (const json* s = r.get("max_match_steps")) {
    if (!s->is_number_unsigned() || s->get<uint64_t>() == 0) {
      return bad("max_match_steps", "a positive integer");
    }
    o.max_match_steps = s->get<size_t>();
  }
  PF_TRY(r.string("arch", o.arch));
  return o;
}

json options_to_json(const ProtocolOptions& o) {
  return {{"warmup", o.warmup},
          {"trials", o.trials},
          {"timing_precision", o.timing_precision},
          {"min_trials", o.min_trials},
          {"baseline_min_trials", o.baseline_min_trials},
          {"baseline_pool", o.baseline_pool},
          {"timing_confidence", o.timing_confidence},
          {"l2_flush", o.l2_flush},
          {"graph_replay", o.graph_replay},
          {"timing_clock", timing_clock_name(o.timing_clock)},
          {"iqr_threshold", o.iqr_threshold},
          {"remeasure", o.remeasure},
          {"b", o.scoring.b},
          {"p", o.scoring.p},
          {"scoring_mode", scoring_mode_name(o.scoring.mode)},
          {"tolerance_min", o.tolerance_min},
          {"tolerance_max", o.tolerance_max},
          {"std_zero_rule", o.std_zero_rule == ZeroStdRule::graphnet ? "graphnet" : "passforge"},
          {"seed", o.seed ? json(*o.seed) : json(nullptr)},
          {"determinism_rerun", o.determinism_rerun},
          {"recheck_cycle", o.recheck_cycle},
          {"repoison_every_trial", o.repoison_every_trial},
          {"trivial_guard_level", o.trivial_guard_level},
          {"implausible_fraction", o.implausible_fraction},
          {"timing_budget_s", o.timing_budget_s},
          {"timing_samples", o.timing_samples},
          {"include_rewritten", o.include_rewritten},
          {"max_match_steps", o.max_match_steps},
          {"arch", o.arch.empty() ? json(nullptr) : json(o.arch)}};
}

}  // namespace pf::protocol
