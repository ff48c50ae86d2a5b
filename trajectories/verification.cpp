#include "trajectories/verification.h"

#include <algorithm>

#include "common/fs.h"
#include "common/sha256.h"
#include "trajectories/result_summary.h"

namespace pf::traj {
namespace {

//! PassNet's correctness level: the dtype baseline tolerance t = -5.
constexpr int kCorrectnessLevel = -5;

bool is_flagged(const EvaluationRecord& e) {
  return e.hack_flags.is_array() && !e.hack_flags.empty();
}

const Json* find_variant(const Json& result, const std::string& name) {
  auto it = result.find("variants");
  if (it == result.end() || !it->is_array()) return nullptr;
  for (const auto& v : *it) {
    if (v.is_object() && field_or(v, "name", std::string()) == name) return &v;
  }
  return nullptr;
}

//! A full evaluation's variant: `correct` (t = -5), or, where PyTorch's own
//! result only reaches a looser level, outputs close at that level with no
//! failure other than accuracy (or unstable timing, judged separately).
bool full_variant_correct(const Json& v, std::string_view task, const std::string& name,
                          const CorrectnessLevels* levels) {
  if (!field_or(v, "evaluated", true)) return false;
  if (field_or(v, "correct", false)) return true;
  if (levels == nullptr) return false;
  int level = levels->level_for(task, name);
  if (level <= kCorrectnessLevel) return false;
  std::string fc = field_or(v, "failure_class", std::string());
  if (!fc.empty() && fc != "accuracy" && fc != "unstable") return false;
  if (auto s = v.find("skipped"); s != v.end() && !s->is_null() && !s->empty()) return false;
  auto fpl = v.find("first_passing_level");
  return fpl != v.end() && fpl->is_number_integer() && fpl->get<int>() <= level;
}

bool compile_only_variant_correct(const Json& v) {
  auto fc = v.find("failure_class");
  return fc == v.end() || fc->is_null();
}

std::vector<std::string> variant_names(const TaskRecord& task, const Json& result) {
  std::vector<std::string> names;
  if (task.variants.is_array()) {
    for (const auto& v : task.variants) {
      if (v.is_object()) names.push_back(field_or(v, "name", std::string()));
    }
  }
  if (names.empty()) {
    for (const auto& v : variant_outcomes(result)) names.push_back(v.name);
  }
  return names;
}

bool any_variant_unstable(const EvaluationRecord& e) {
  if (e.unstable) return true;
  for (const auto& v : variant_outcomes(e.result)) {
    if (v.unstable) return true;
  }
  return false;
}

}  // namespace

int CorrectnessLevels::level_for(std::string_view task, std::string_view variant) const {
  auto it = levels.find(std::string(task) + "/" + std::string(variant));
  return it == levels.end() ? kCorrectnessLevel : std::max(kCorrectnessLevel, it->second);
}

Result<CorrectnessLevels> load_correctness_levels(const std::filesystem::path& path) {
  PF_ASSIGN(std::string text, read_file(path));
  Json doc = Json::parse(text, nullptr, false);
  auto bad = [&](const std::string& why) {
    return make_error(ErrorCode::parse_error, path.string() + ": " + why);
  };
  if (!doc.is_object() || !doc.contains("levels") || !doc["levels"].is_object()) {
    return bad("expected {\"levels\": {\"task/variant\": level, ...}}");
  }
  CorrectnessLevels out;
  out.source = path.string();
  out.sha256 = sha256_hex(text);
  for (const auto& [key, level] : doc["levels"].items()) {
    if (!level.is_number_integer()) return bad("level of '" + key + "' is not an integer");
    if (key.find('/') == std::string::npos) return bad("key '" + key + "' is not task/variant");
    out.levels[key] = level.get<int>();
  }
  return out;
}

std::string_view to_string(Rejection r) {
  switch (r) {
    case Rejection::none:
      return "verified";
    case Rejection::no_submit:
      return "no_submit";
    case Rejection::compile_only:
      return "compile_only";
    case Rejection::flagged:
      return "flagged";
    case Rejection::unstable:
      return "unstable";
    case Rejection::incorrect:
      return "incorrect";
  }
  return "?";
}

Verdict verify_evaluation(const EvaluationRecord& e, const TaskRecord& task,
                          const VerifyRule& rule) {
  Verdict v;
  const bool full = e.mode == EvalMode::full;
  if (e.kind == EvalKind::compile || (!full && !rule.include_compile_only)) {
    v.rejection = Rejection::compile_only;
    return v;
  }
  auto names = variant_names(task, e.result);
  int correct = 0;
  for (const auto& name : names) {
    const Json* r = find_variant(e.result, name);
    if (r == nullptr) continue;  // never evaluated: not correct
    bool ok = full ? full_variant_correct(*r, task.id, name, rule.levels)
                   : compile_only_variant_correct(*r);
    correct += ok ? 1 : 0;
  }
  if (!names.empty())
    v.correct_share = static_cast<double>(correct) / static_cast<double>(names.size());
  if (is_flagged(e) && !rule.include_flagged) {
    v.rejection = Rejection::flagged;
  } else if (full && any_variant_unstable(e) && !rule.include_unstable) {
    v.rejection = Rejection::unstable;
  } else if (!v.correct_share || *v.correct_share < rule.min_correct) {
    v.rejection = Rejection::incorrect;
  }
  return v;
}

std::optional<size_t> final_submit(const std::vector<EvaluationRecord>& evaluations) {
  std::optional<size_t> last;
  for (size_t i = 0; i < evaluations.size(); ++i) {
    if (evaluations[i].kind != EvalKind::submit) continue;
    if (!last || evaluations[i].turn >= evaluations[*last].turn) last = i;
  }
  return last;
}

EpisodeVerdict verify_episode(const std::vector<EvaluationRecord>& evaluations,
                              const TaskRecord& task, const VerifyRule& rule) {
  EpisodeVerdict out;
  out.submit = final_submit(evaluations);
  if (!out.submit) {
    out.verdict.rejection = Rejection::no_submit;
    return out;
  }
  out.verdict = verify_evaluation(evaluations[*out.submit], task, rule);
  return out;
}

}  // namespace pf::traj
