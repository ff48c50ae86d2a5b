#include "serve/episode_view.h"

#include "serve/line_diff.h"
#include "trajectories/result_summary.h"
#include "trajectories/trajectory_reader.h"

namespace pf::serve {
namespace {

using nlohmann::json;

json opt(const std::optional<double>& v) {
  return v ? json(*v) : json();
}

// Tool-call arguments arrive as JSON text; shown parsed when they parse.
json tool_calls(const json& calls) {
  if (!calls.is_array()) return json::array();
  json out = json::array();
  for (const auto& c : calls) {
    json fn = c.is_object() && c.contains("function") ? c["function"] : json::object();
    std::string args = traj::field_or<std::string>(fn, "arguments", "");
    json parsed = json::parse(args, nullptr, /*allow_exceptions=*/false);
    out.push_back({{"id", traj::field_or<std::string>(c, "id", "")},
                   {"name", traj::field_or<std::string>(fn, "name", "")},
                   {"arguments", parsed.is_discarded() ? json(args) : parsed}});
  }
  return out;
}

// Where an evaluation's flags come from: kernel files with static flags,
// variants failing an integrity check, and a whole-evaluation instability.
json flag_evidence(const traj::EvaluationRecord& e) {
  json out = json::array();
  const json& r = e.result;
  if (r.is_object() && r.contains("compile") && r["compile"].is_object()) {
    for (const auto& f : r["compile"].value("files", json::array())) {
      if (f.is_object() && f.value("flags", json::array()).is_array() && !f["flags"].empty()) {
        out.push_back(
            {{"where", traj::field_or<std::string>(
                           f, "file", traj::field_or<std::string>(f, "name", "kernel file"))},
             {"what", f["flags"]}});
      }
    }
  }
  if (r.is_object() && r.contains("variants") && r["variants"].is_array()) {
    for (const auto& v : r["variants"]) {
      std::string cls = traj::field_or<std::string>(v, "failure_class", "");
      if (cls == "integrity" || traj::field_or<bool>(v, "unstable", false)) {
        out.push_back({{"where", "variant " + traj::field_or<std::string>(v, "name", "?")},
                       {"what", cls.empty() ? json("unstable timing") : json(cls)},
                       {"message", traj::field_or<std::string>(v, "message", "")}});
      }
    }
  }
  return out;
}

json diff_json(const traj::Workspace& before, const traj::Workspace& after) {
  json files = json::array();
  auto add = [&](const std::string& path, const std::string& a, const std::string& b) {
    auto lines = line_diff(a, b);
    if (lines.empty()) return;
    json l = json::array();
    for (const auto& d : lines) l.push_back({std::string(1, d.op), d.text});
    files.push_back({{"path", path}, {"lines", l}});
  };
  for (const auto& [path, text] : after) {
    auto it = before.find(path);
    add(path, it == before.end() ? "" : it->second, text);
  }
  for (const auto& [path, text] : before) {
    if (!after.count(path)) add(path, text, "");
  }
  return files;
}

}  // namespace

Result<json> episode_json(const RunEntry& entry, const std::string& episode_id) {
  PF_ASSIGN(auto reader, traj::TrajectoryReader::open(entry.dir));
  json out;
  PF_TRY(reader.snapshot([&]() -> Status {
    PF_ASSIGN(auto ep, reader.episode(episode_id));
    PF_ASSIGN(auto messages, reader.messages(episode_id));
    PF_ASSIGN(auto evaluations, reader.evaluations(episode_id));
    json msgs = json::array();
    for (const auto& m : messages) {
      msgs.push_back({{"seq", m.seq},
                      {"turn", m.turn},
                      {"role", traj::to_string(m.role)},
                      {"content", m.content},
                      {"reasoning", m.reasoning},
                      {"tool_calls", tool_calls(m.tool_calls)},
                      {"tool_call_id", m.tool_call_id},
                      {"name", m.name},
                      {"latency_ms", opt(m.latency_ms)}});
    }
    json evals = json::array();
    traj::Workspace previous;
    for (const auto& e : evaluations) {
      traj::Workspace files;
      if (!e.workspace_sha.empty()) {
        PF_ASSIGN(files, reader.workspace(e.workspace_sha));
      }
      evals.push_back({{"id", e.id},
                       {"turn", e.turn},
                       {"kind", traj::to_string(e.kind)},
                       {"mode", traj::to_string(e.mode)},
                       {"as", opt(e.as_score)},
                       {"hidden_as", opt(e.hidden_as)},
                       {"correct_rate", opt(e.correct_rate)},
                       {"geomean_speedup", opt(e.geomean_speedup)},
                       {"unstable", e.unstable},
                       {"counts", traj::counts_as_success(e, false)},
                       {"best", e.id == ep.best_evaluation_id},
                       {"hack_flags", e.hack_flags},
                       {"flag_evidence", flag_evidence(e)},
                       {"failure_classes", e.failure_classes},
                       {"es_curve", e.es_curve},
                       {"result", e.result},
                       {"files", files},
                       {"diff", files.empty() ? json::array() : diff_json(previous, files)}});
      if (!files.empty()) previous = std::move(files);
    }
    out = {{"id", ep.id},
           {"run_id", ep.run_id},
           {"task", ep.task_id},
           {"sample", ep.sample_index},
           {"status", traj::to_string(ep.status)},
           {"exit_reason", ep.exit_reason},
           {"best_as", opt(ep.best_as)},
           {"best_evaluation", ep.best_evaluation_id},
           {"turns", ep.turns},
           {"model", ep.model},
           {"prompt_variant", ep.prompt_variant},
           {"agent_mode", traj::to_string(ep.agent_mode)},
           {"prompt_tokens", ep.prompt_tokens},
           {"completion_tokens", ep.completion_tokens},
           {"wall_time_s", ep.wall_time_s},
           {"started_at", ep.started_at},
           {"finished_at", ep.finished_at},
           {"messages", msgs},
           {"evaluations", evals}};
    return ok_status();
  }));
  return out;
}

}  // namespace pf::serve
