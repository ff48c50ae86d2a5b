#include "agent/loop/feedback_report.h"

#include <cmath>
#include <set>
#include <vector>

#include "common/strings.h"
#include "evaluator/scoring/failure_class.h"

namespace pf::agent {
namespace {

using Json = nlohmann::json;

// Fields may be a string, an array of strings (lines) or an object.
std::string text_of(const Json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_array()) {
    std::string out;
    for (const auto& item : j) {
      std::string line = text_of(item);
      if (line.empty()) continue;
      if (!out.empty()) out += "\n";
      out += line;
    }
    return out;
  }
  if (j.is_null()) return "";
  if (j.is_object()) {
    for (const char* key : {"message", "text", "error", "detail"}) {
      if (j.contains(key)) return text_of(j[key]);
    }
  }
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string field_text(const Json& obj, std::initializer_list<const char*> keys) {
  if (!obj.is_object()) return "";
  for (const char* key : keys) {
    if (obj.contains(key)) {
      std::string t = text_of(obj[key]);
      if (!t.empty()) return t;
    }
  }
  return "";
}

std::string fmt(double v, int digits = 3) {
  if (!std::isfinite(v)) return format_double(v);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::optional<double> number(const Json& obj, const char* key) {
  if (obj.is_object() && obj.contains(key) && obj[key].is_number()) return obj[key].get<double>();
  return std::nullopt;
}

std::string failure_of(const Json& v) {
  if (v.contains(kFailureClassField) && v[kFailureClassField].is_string()) {
    return v[kFailureClassField].get<std::string>();
  }
  return "";
}

// "FuseX x2, FuseY x1" from [{"pass": "FuseX", "count": 2}, ...]: the passes
// that matched.
std::string matches_text(const Json& m) {
  std::vector<std::string> parts;
  if (!m.is_array()) return "";
  for (const auto& e : m) {
    if (!e.is_object() || !e.contains("count") || !e["count"].is_number_integer()) continue;
    int64_t count = e["count"].get<int64_t>();
    if (count > 0) parts.push_back(field_text(e, {"pass", "name"}) + " x" + std::to_string(count));
  }
  return join(parts, ", ");
}

// Error magnitudes and the first mismatch of a variant, when the result has them.
std::string magnitudes(const Json& v) {
  std::vector<std::string> parts;
  if (auto a = number(v, "max_abs_diff")) parts.push_back("max abs diff " + fmt(*a));
  if (auto r = number(v, "max_rel_diff")) parts.push_back("max rel diff " + fmt(*r));
  if (v.contains("first_mismatch") && !v["first_mismatch"].is_null()) {
    parts.push_back("first mismatch " + text_of(v["first_mismatch"]));
  }
  return join(parts, "; ");
}

// Most important first: what blocks everything else comes first.
int severity(const std::string& failure_class) {
  static const std::vector<std::string> order = {
      "compile_fail", "pass_miss",      "shape_mismatch", "dtype_mismatch", "runtime_fail",
      "timeout",      "resource_limit", "integrity",      "accuracy",       "unstable"};
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] == failure_class) return static_cast<int>(i);
  }
  return static_cast<int>(order.size());
}

}  // namespace

std::string shorten(const std::string& text, size_t max_chars) {
  if (text.size() <= max_chars) return text;
  size_t cut = max_chars > 40 ? max_chars - 40 : max_chars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "\n[... " + std::to_string(text.size() - cut) +
         " more characters cut]";
}

std::string first_line(const std::string& text) {
  auto nl = text.find('\n');
  return nl == std::string::npos ? text : text.substr(0, nl);
}

std::optional<std::string> situated_message(const prompts::PromptVariant& prompts,
                                            const std::string& key,
                                            FeedbackSituation::Reader reader) {
  using Reader = FeedbackSituation::Reader;
  std::vector<std::string> keys;
  if (reader == Reader::tools) keys.push_back(key + "_tools");
  if (reader == Reader::chat) keys.push_back(key + "_chat");
  keys.push_back(key);
  for (const auto& k : keys) {
    if (!prompts.has_message(k)) continue;
    auto text = prompts.message(k);
    if (text.ok()) return *text;
  }
  return std::nullopt;
}

Json feedback_context(const Json& result, const prompts::PromptVariant& prompts, size_t log_chars,
                      size_t detail_chars, size_t max_variants,
                      const FeedbackSituation& situation) {
  Json ctx = Json::object();
  const bool compile_only = result.value("mode", "full") == "compile_only";
  ctx["compile_only"] = compile_only;
  // An evaluation that could only do what `compile` does says so, rather
  // than letting a "passed" read as correct.
  ctx["evaluate_without_gpu"] =
      compile_only && situation.evaluate && situation.reader == FeedbackSituation::Reader::tools;

  const Json compile = result.contains("compile") && result["compile"].is_object()
                           ? result["compile"]
                           : Json::object();
  const std::string whole = failure_of(result);
  if (!whole.empty()) {
    std::string message = field_text(result, {"message", "error"});
    if (!message.empty()) ctx["failure_message"] = shorten(message, log_chars);
  }
  // Compiler warnings of every file (the errors are in the failure message).
  std::vector<std::string> warnings;
  if (compile.contains("files") && compile["files"].is_array()) {
    for (const auto& f : compile["files"]) {
      if (f.is_object() && f.contains("log") && f["log"].is_object()) {
        std::string w = field_text(f["log"], {"warnings_text"});
        if (!w.empty()) warnings.push_back(w);
      }
    }
  }
  if (!warnings.empty()) ctx["compile_warnings"] = shorten(join(warnings, "\n"), log_chars / 2);

  // Variants: visible ones in detail, hidden ones summarised without names or counts.
  Json variants = Json::array();
  size_t visible = 0, visible_ok = 0, shown = 0;
  std::set<std::string> hidden_failures, classes;
  bool hidden_seen = false;
  const Json all = result.contains("variants") && result["variants"].is_array() ? result["variants"]
                                                                                : Json::array();
  for (const auto& v : all) {
    if (!v.is_object()) continue;
    const std::string fc = failure_of(v);
    if (v.value("hidden", false)) {
      hidden_seen = true;
      if (!fc.empty()) hidden_failures.insert(fc);
      continue;
    }
    ++visible;
    if (!fc.empty()) classes.insert(fc);
    const bool ok = compile_only ? fc.empty() : (v.value("correct", false) && fc.empty());
    if (ok) ++visible_ok;
    if (shown >= max_variants) continue;
    ++shown;
    std::string status;
    if (!fc.empty()) {
      status = fc;
    } else if (compile_only) {
      status = "ok";
    } else {
      status = v.value("correct", false) ? "correct" : "wrong";
    }
    if (auto s = number(v, "speedup"); s && fc.empty()) status += ", " + fmt(*s) + "x";
    std::string m = v.contains("matches") ? matches_text(v["matches"]) : "";
    if (!m.empty()) status += " (matched: " + m + ")";
    if (v.value("unstable", false)) status += " (timing unstable)";
    std::vector<std::string> detail;
    std::string d = field_text(v, {"message", "diagnostics", "error", "detail"});
    if (!d.empty()) detail.push_back(d);
    std::string mag = magnitudes(v);
    if (!mag.empty()) detail.push_back(mag);
    Json entry = {{"name", v.value("name", "variant")}, {"status", status}};
    std::string joined = join(detail, "\n");
    if (!joined.empty()) {
      // Indent continuation lines under the bullet.
      std::string indented;
      for (char c : shorten(joined, detail_chars)) {
        indented.push_back(c);
        if (c == '\n') indented += "  ";
      }
      entry["detail"] = indented;
    }
    variants.push_back(std::move(entry));
  }
  if (visible > shown) {
    variants.push_back({{"name", "..."},
                        {"status", std::to_string(visible - shown) + " more variants not shown"}});
  }
  ctx["variants"] = variants;
  ctx["has_variants"] = !variants.empty();
  if (hidden_seen) {
    ctx["hidden"] =
        hidden_failures.empty()
            ? std::string(compile_only ? "all passed the compile-only checks" : "all correct")
            : "some failed (" + join({hidden_failures.begin(), hidden_failures.end()}, ", ") + ")";
  }

  // Score.
  auto as = number(result, "as");
  if (as && !compile_only) {
    ctx["has_score"] = true;
    ctx["as"] = fmt(*as);
    if (auto g = number(result, "geomean_speedup")) ctx["speedup"] = fmt(*g);
    if (result.contains("es_curve") && result["es_curve"].is_array()) {
      std::vector<std::string> es;
      for (const auto& p : result["es_curve"]) {
        int t = p.value("t", 99);
        if ((t == -5 || t == 0 || t == 1) && p.contains("es") && p["es"].is_number()) {
          es.push_back("ES(" + std::to_string(t) + ") " + fmt(p["es"].get<double>()));
        }
      }
      if (!es.empty()) ctx["es"] = join(es, ", ");
    }
  }

  // Integrity findings, explained where the prompt variant explains them,
  // with the evidence of the first visible variant that shows them (full
  // results list it in "flags"; hidden variants' evidence is never shown).
  Json flags = Json::array();
  if (result.contains("hack_flags") && result["hack_flags"].is_array()) {
    for (const auto& f : result["hack_flags"]) {
      std::string name = text_of(f);
      auto explained = prompts.message("flag_" + name, {{"flag", name}});
      std::string line = explained.ok() ? name + ": " + *explained : name;
      for (const auto& e : result.value("flags", Json::array())) {
        if (!e.is_object() || e.value("flag", "") != name || e.value("hidden", false)) continue;
        std::string evidence = field_text(e, {"evidence"});
        if (!evidence.empty()) {
          line += " [" + e.value("variant", "") + ": " + shorten(evidence, detail_chars) + "]";
        }
        break;
      }
      flags.push_back(line);
    }
  }
  ctx["flags"] = flags;
  ctx["has_flags"] = !flags.empty();
  // Findings about the task itself (weak_task): reported, never blamed on the pass.
  if (result.contains("task_flags") && result["task_flags"].is_array() &&
      !result["task_flags"].empty()) {
    std::vector<std::string> names;
    for (const auto& f : result["task_flags"]) names.push_back(text_of(f));
    auto note = prompts.message("task_flags", {{"flags", join(names, ", ")}});
    ctx["task_note"] = note.ok() ? *note : join(names, ", ");
  }

  // Headline.
  std::string headline;
  if (!whole.empty()) {
    headline = "Evaluation failed: " + whole + ".";
  } else if (compile_only) {
    headline = "Compile-only check: " + std::to_string(visible_ok) + " of " +
               std::to_string(visible) + " variants compiled, matched and passed the dry run.";
  } else {
    headline = (as ? "AS " + fmt(*as) + ": " : std::string()) + std::to_string(visible_ok) +
               " of " + std::to_string(visible) + " variants correct.";
  }
  ctx["headline"] = headline;

  // What to try next: the most severe failure, else speed.
  std::string worst = whole;
  for (const auto& c : classes) {
    if (worst.empty() || severity(c) < severity(worst)) worst = c;
  }
  std::string key;
  if (!worst.empty()) {
    key = "hint_" + worst;
  } else if (!flags.empty()) {
    key = "hint_integrity";
  } else if (compile_only) {
    // An evaluation that came back compile-only had no GPU either.
    key = situation.gpu && !situation.evaluate ? "hint_compile_ok" : "hint_compile_ok_no_gpu";
  } else if (auto g = number(result, "geomean_speedup"); g && *g > 1.0) {
    key = "hint_fast";
  } else {
    key = "hint_slow";
  }
  if (auto hint = situated_message(prompts, key, situation.reader)) ctx["next"] = *hint;
  return ctx;
}

Result<std::string> render_feedback(const Json& result, const prompts::PromptVariant& prompts,
                                    size_t max_chars, const FeedbackSituation& situation) {
  struct Budget {
    size_t log, detail, variants;
  };
  // Each step gives less room to logs and details, then to variants.
  const Budget budgets[] = {
      {4000, 800, 16}, {2000, 400, 12}, {1000, 200, 8}, {500, 120, 4}, {250, 80, 2}};
  std::string text;
  for (const auto& b : budgets) {
    Json ctx = feedback_context(result, prompts, b.log, b.detail, b.variants, situation);
    PF_ASSIGN(text, prompts.render(prompts::kFeedbackFile, ctx));
    while (!text.empty() && text.back() == '\n') text.pop_back();
    if (text.size() <= max_chars) return text;
  }
  return shorten(text, max_chars);
}

}  // namespace pf::agent
