// CompileOnlyResult::to_json: the fields of docs/result-fields.md (read by the
// trajectory store) plus the compile-only section documented there.
#include "evaluator/passes/compile_only.h"

namespace pf::passes {
namespace {

using nlohmann::json;

json dims_json(const std::array<int64_t, 3>& d) {
  return json::array({d[0], d[1], d[2]});
}

json failure_json(FailureClass c) {
  return c == FailureClass::none ? json(nullptr) : json(failure_class_name(c));
}

json variant_json(const VariantReport& v) {
  json matches = json::array();
  int total = 0;
  for (const auto& p : v.passes) {
    json m = {{"pass", p.pass}, {"count", p.matches}};
    if (p.matches == 0 && !p.diagnostics.empty()) m["diagnostics"] = p.diagnostics;
    if (p.budget_exhausted) m["budget_exhausted"] = true;
    matches.push_back(std::move(m));
    total += p.matches;
  }
  json launches = json::array();
  for (const auto& call : v.calls) {
    for (const auto& l : call.launches) {
      launches.push_back({{"pass", call.pass},
                          {"kernel", l.kernel},
                          {"grid", dims_json(l.config.grid)},
                          {"block", dims_json(l.config.block)},
                          {"smem", l.config.dynamic_smem_bytes},
                          {"args", l.args},
                          {"line", l.line}});
    }
  }
  json out = {{"name", v.name},
              {"hidden", v.hidden},
              {kFailureClassField, failure_json(v.failure)},
              {"matched", total > 0},
              {"match_count", total},
              {"matches", matches},
              {"calls", static_cast<int>(v.calls.size())},
              {"launches", launches},
              {"message", v.message}};
  if (!v.rewritten.empty()) out["rewritten"] = v.rewritten;
  return out;
}

}  // namespace

json CompileOnlyResult::to_json() const {
  json passes_json = json::array();
  for (const auto& p : passes) {
    json sites = json::array();
    for (const auto& s : p.launches) sites.push_back({{"kernel", s.kernel}, {"line", s.loc.line}});
    passes_json.push_back({{"name", p.name}, {"file", p.file}, {"launches", sites}});
  }
  json variants_json = json::array();
  int matched = 0, miss = 0, dry_fail = 0, hidden = 0;
  for (const auto& v : variants) {
    variants_json.push_back(variant_json(v));
    hidden += v.hidden ? 1 : 0;
    if (v.failure == FailureClass::pass_miss) {
      ++miss;
    } else {
      ++matched;
      if (v.failure != FailureClass::none) ++dry_fail;
    }
  }
  json compile_json = nullptr;
  if (compile) {
    compile_json = compile->to_json();
  }
  return json{{"mode", "compile_only"},
              {"as", nullptr},
              {"hidden_as", nullptr},
              {"es_curve", nullptr},
              {kFailureClassField, failure_json(failure)},
              {"message", message},
              {"ok", ok()},
              {"hack_flags", hack_flags},
              {"passes", passes_json},
              {"compile", compile_json},
              {"summary",
               {{"variants", static_cast<int>(variants.size())},
                {"hidden_variants", hidden},
                {"matched", matched},
                {"pass_miss", miss},
                {"dry_run_failures", dry_fail}}},
              {"variants", variants_json}};
}

}  // namespace pf::passes
