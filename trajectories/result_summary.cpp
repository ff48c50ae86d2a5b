#include "trajectories/result_summary.h"

#include <cmath>
#include <set>

namespace pf::traj {
namespace {

// The store reads results without depending on the evaluator that writes
// them; this is its one copy of evaluator/scoring/failure_class.h's name.
constexpr const char* kFailureClassField = "failure_class";

Error field_error(const std::string& field, const std::string& expected) {
  return make_error(ErrorCode::invalid_argument,
                    "evaluation result: field '" + field + "' must be " + expected);
}

Result<std::optional<double>> optional_number(const Json& obj, const char* field) {
  auto it = obj.find(field);
  if (it == obj.end() || it->is_null()) return std::optional<double>{};
  if (!it->is_number()) return field_error(field, "a number or null");
  return std::optional<double>(it->get<double>());
}

Status check_string_array(const Json& obj, const char* field) {
  auto it = obj.find(field);
  if (it == obj.end()) return ok_status();
  if (!it->is_array()) return field_error(field, "an array of strings");
  for (const auto& v : *it) {
    if (!v.is_string()) return field_error(field, "an array of strings");
  }
  return ok_status();
}

//! A present field must have the given type (numbers: any numeric type).
Status check_type(const Json& obj, const char* field, Json::value_t type, const char* expected) {
  auto it = obj.find(field);
  if (it == obj.end()) return ok_status();
  bool ok = type == Json::value_t::number_float ? it->is_number() : it->type() == type;
  return ok ? ok_status() : field_error(field, expected);
}

Status check_variants(const Json& result) {
  auto it = result.find("variants");
  if (it == result.end()) return ok_status();
  if (!it->is_array()) return field_error("variants", "an array of objects");
  for (const auto& v : *it) {
    if (!v.is_object()) return field_error("variants", "an array of objects");
    PF_TRY(check_type(v, "name", Json::value_t::string, "a string"));
    for (const char* flag : {"hidden", "correct", "unstable"}) {
      PF_TRY(check_type(v, flag, Json::value_t::boolean, "a boolean"));
    }
    if (auto s = v.find("speedup"); s != v.end() && !s->is_null() && !s->is_number()) {
      return field_error("variants[].speedup", "a number or null");
    }
    if (auto f = v.find(kFailureClassField); f != v.end() && !f->is_null() && !f->is_string()) {
      return field_error("variants[].failure_class", "a string or null");
    }
  }
  return ok_status();
}

}  // namespace

std::vector<VariantOutcome> variant_outcomes(const Json& result) {
  std::vector<VariantOutcome> out;
  if (!result.is_object()) return out;
  auto it = result.find("variants");
  if (it == result.end() || !it->is_array()) return out;
  for (const auto& v : *it) {
    if (!v.is_object()) continue;
    VariantOutcome o;
    o.name = field_or(v, "name", std::string());
    o.hidden = field_or(v, "hidden", false);
    o.correct = field_or(v, "correct", false);
    if (auto s = v.find("speedup"); s != v.end() && s->is_number()) o.speedup = s->get<double>();
    if (auto f = v.find(kFailureClassField); f != v.end() && f->is_string()) {
      o.failure_class = f->get<std::string>();
    }
    o.unstable = field_or(v, "unstable", false);
    out.push_back(std::move(o));
  }
  return out;
}

double failure_score(const Json& result) {
  if (result.is_object()) {
    auto it = result.find("b");
    if (it != result.end() && it->is_number()) return it->get<double>();
  }
  return kDefaultFailureScore;
}

Result<EvaluationRecord> evaluation_from_result(EvalKind kind, const Json& result) {
  if (!result.is_object()) return field_error("(result)", "a JSON object");
  EvaluationRecord e;
  e.kind = kind;
  e.result = result;
  PF_TRY(check_type(result, "mode", Json::value_t::string, "\"full\" or \"compile_only\""));
  PF_TRY(check_type(result, "unstable", Json::value_t::boolean, "a boolean"));
  PF_TRY(check_variants(result));
  std::string mode = field_or(result, "mode", std::string("full"));
  auto parsed_mode = parse_eval_mode(mode);
  if (!parsed_mode.ok()) return parsed_mode.error().with_context("evaluation result: field 'mode'");
  e.mode = *parsed_mode;
  PF_ASSIGN(e.as_score, optional_number(result, "as"));
  PF_ASSIGN(e.hidden_as, optional_number(result, "hidden_as"));
  if (auto it = result.find("es_curve"); it != result.end() && !it->is_null()) {
    if (!it->is_array()) return field_error("es_curve", "an array of {\"t\", \"es\"}");
    for (const auto& p : *it) {
      if (!p.is_object() || !p.contains("t") || !p["t"].is_number_integer() || !p.contains("es") ||
          !p["es"].is_number()) {
        return field_error("es_curve", "an array of {\"t\": int, \"es\": number}");
      }
    }
    e.es_curve = *it;
  }
  PF_TRY(check_string_array(result, "hack_flags"));
  if (auto it = result.find("hack_flags"); it != result.end()) e.hack_flags = *it;

  std::set<std::string> classes;
  if (auto it = result.find(kFailureClassField); it != result.end() && it->is_string()) {
    classes.insert(it->get<std::string>());
  }
  int visible = 0, correct = 0;
  double log_sum = 0;
  int speedups = 0;
  e.unstable = field_or(result, "unstable", false);
  for (const auto& v : variant_outcomes(result)) {
    if (!v.failure_class.empty()) classes.insert(v.failure_class);
    if (v.hidden) continue;
    ++visible;
    if (v.unstable) e.unstable = true;
    if (!v.correct) continue;
    ++correct;
    if (v.speedup && *v.speedup > 0) {
      log_sum += std::log(*v.speedup);
      ++speedups;
    }
  }
  // Compile-only results measure no correctness: null, not 0.
  if (visible > 0 && e.mode == EvalMode::full) {
    e.correct_rate = static_cast<double>(correct) / visible;
  }
  if (speedups > 0) e.geomean_speedup = std::exp(log_sum / speedups);
  e.failure_classes = Json(std::vector<std::string>(classes.begin(), classes.end()));
  return e;
}

bool counts_as_success(const EvaluationRecord& e, bool include_flagged) {
  if (!e.as_score || e.kind == EvalKind::compile) return false;
  if (include_flagged) return true;
  bool flagged = e.hack_flags.is_array() && !e.hack_flags.empty();
  return e.mode == EvalMode::full && !flagged && !e.unstable;
}

bool is_correct(const EvaluationRecord& e) {
  return e.correct_rate && *e.correct_rate >= 1.0;
}

}  // namespace pf::traj
