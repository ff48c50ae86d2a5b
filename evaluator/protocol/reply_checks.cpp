#include "evaluator/protocol/reply_checks.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "evaluator/protocol/result_score.h"
#include "evaluator/scoring/tolerance.h"

namespace pf::protocol {
namespace {

using nlohmann::json;

Error fault(const std::string& message) {
  return make_error(ErrorCode::invalid_argument, message);
}

std::string num(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

Status finite_in(const std::optional<double>& x, double lo, double hi, const std::string& what) {
  if (!x) return ok_status();
  if (!std::isfinite(*x) || *x < lo || *x > hi) {
    return fault(what + " = " + num(*x) + " is outside [" + num(lo) + ", " + num(hi) + "]");
  }
  return ok_status();
}

bool close(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

// A claimed number against the orchestrator's: both null, or equal.
Status agrees(const json& claimed, const json& ours, const std::string& what) {
  if (claimed.is_null() && ours.is_null()) return ok_status();
  if (claimed.is_number() && ours.is_number() && close(claimed.get<double>(), ours.get<double>())) {
    return ok_status();
  }
  return fault("the worker's " + what + " " + claimed.dump() + " is not what its variants give (" +
               ours.dump() + ")");
}

Status check_variant(const VariantReport& v, EvalMode mode) {
  const std::string where = "variant '" + v.name + "': ";
  if (mode == EvalMode::compile_only) {
    if (v.speedup) return fault(where + "a compile-only reply claims a speedup");
    if (v.correct) return fault(where + "a compile-only reply claims a correct run");
    return ok_status();
  }
  if (v.speedup && !(std::isfinite(*v.speedup) && *v.speedup > 0)) {
    return fault(where + "speedup " + num(*v.speedup) + " is not a positive finite number");
  }
  const bool flagged_implausible =
      std::find(v.flags.begin(), v.flags.end(), "implausible_speedup") != v.flags.end();
  PF_TRY(finite_in(v.speedup, 0, flagged_implausible ? HUGE_VAL : kMaxPhysicalSpeedup,
                   where + "speedup"));
  PF_TRY(finite_in(v.max_abs_diff, 0, HUGE_VAL, where + "max_abs_diff"));
  PF_TRY(finite_in(v.max_rel_diff, 0, HUGE_VAL, where + "max_rel_diff"));
  for (double ms : v.timing_ms) PF_TRY(finite_in(ms, 0, HUGE_VAL, where + "a timing in ms"));
  if (v.first_passing_level && (*v.first_passing_level < kMinToleranceLevel ||
                                *v.first_passing_level > kMaxToleranceLevel + 1)) {
    return fault(where + "first_passing_level " + std::to_string(*v.first_passing_level) +
                 " is outside the tolerance scale");
  }
  if (v.correct && !v.evaluated) return fault(where + "correct but not evaluated");
  return ok_status();
}

Status check_variants(const EvalRequest& request, const EvalReply& reply) {
  std::map<std::string, bool> hidden;  // the task's variants
  for (const auto& tv : request.task.variants) hidden[tv.name] = tv.hidden;
  std::set<std::string> requested;
  if (request.variants) requested.insert(request.variants->begin(), request.variants->end());
  std::set<std::string> seen;
  for (const auto& v : reply.variants) {
    auto it = hidden.find(v.name);
    if (it == hidden.end()) return fault("variant '" + v.name + "' is not a variant of the task");
    if (!seen.insert(v.name).second) return fault("variant '" + v.name + "' is listed twice");
    if (it->second != v.hidden) {
      return fault("variant '" + v.name + "': hidden flag differs from the task's");
    }
    if (v.evaluated && !requested.empty() && requested.count(v.name) == 0) {
      return fault("variant '" + v.name + "' was evaluated but not requested");
    }
    PF_TRY(check_variant(v, reply.mode));
  }
  return ok_status();
}

// AS, hidden AS, ES_t and correct_rate as the orchestrator's scoring has them.
Status check_scores(const EvalReply& reply, const ProtocolOptions& options) {
  json ours = reply.body;
  score_result(ours, options);
  for (const char* key : {"as", "hidden_as", "correct_rate"}) {
    PF_TRY(agrees(reply.body.value(key, json()), ours[key], key));
  }
  for (const char* key : {"es_curve", "hidden_es_curve"}) {
    const json claimed = reply.body.value(key, json());
    const json& mine = ours[key];
    if (claimed.is_null() && mine.is_null()) continue;
    if (!claimed.is_array() || !mine.is_array() || claimed.size() != mine.size()) {
      return fault(std::string("the worker's ") + key + " does not cover the configured levels");
    }
    for (size_t i = 0; i < mine.size(); ++i) {
      const json& c = claimed[i];
      if (!c.is_object() || c.value("t", json()) != mine[i]["t"]) {
        return fault(std::string("the worker's ") + key + " lists other levels");
      }
      PF_TRY(agrees(c.value("es", json()), mine[i]["es"],
                    std::string(key) + " at t = " + mine[i]["t"].dump()));
    }
  }
  return ok_status();
}

}  // namespace

Status check_reply(const EvalRequest& request, const EvalReply& reply,
                   const ProtocolOptions& options) {
  if (reply.mode != request.mode) {
    return fault(std::string("mode \"") + eval_mode_name(reply.mode) + "\" answers a \"" +
                 eval_mode_name(request.mode) + "\" request");
  }
  PF_TRY(check_variants(request, reply));
  if (reply.mode == EvalMode::compile_only) {
    if (reply.as || reply.hidden_as || reply.correct_rate || reply.geomean_speedup) {
      return fault("a compile-only reply claims a score");
    }
    return ok_status();
  }
  PF_TRY(finite_in(reply.correct_rate, 0, 1, "correct_rate"));
  // The variants' speedups are bounded above; the task-level numbers must
  // then equal what scoring makes of them (check_scores).
  PF_TRY(finite_in(reply.as, 0, HUGE_VAL, "AS"));
  PF_TRY(finite_in(reply.hidden_as, 0, HUGE_VAL, "hidden AS"));
  PF_TRY(finite_in(reply.geomean_speedup, 0, HUGE_VAL, "geomean_speedup"));
  return check_scores(reply, options);
}

}  // namespace pf::protocol
