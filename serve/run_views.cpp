#include "serve/run_views.h"

#include <algorithm>
#include <map>
#include <set>

#include "experiments/experiment_store.h"
#include "trajectories/result_summary.h"
#include "trajectories/run_stats.h"
#include "trajectories/stats_report.h"
#include "trajectories/svg_rows.h"
#include "trajectories/trajectory_reader.h"

namespace pf::serve {
namespace {

using nlohmann::json;

json opt(const std::optional<double>& v) {
  return v ? json(*v) : json();
}

struct LoadedRun {
  std::vector<traj::RunRecord> runs;
  size_t tasks = 0;
  std::vector<traj::EpisodeRecord> episodes;
  std::vector<traj::EvaluationRecord> evaluations;
  traj::RunStats stats;
};

Result<LoadedRun> load(const RunEntry& entry, bool with_evaluations) {
  PF_ASSIGN(auto reader, traj::TrajectoryReader::open(entry.dir));
  LoadedRun run;
  PF_TRY(reader.snapshot([&]() -> Status {
    PF_ASSIGN(run.runs, reader.runs());
    PF_ASSIGN(auto tasks, reader.tasks());
    run.tasks = tasks.size();
    PF_ASSIGN(run.episodes, reader.episodes());
    if (with_evaluations) {
      PF_ASSIGN(run.evaluations, reader.evaluations(""));
    }
    return ok_status();
  }));
  PF_ASSIGN(run.stats, traj::compute_stats(reader, entry.name));
  return run;
}

// running while any run of the store runs; else the worst end state.
std::string store_status(const std::vector<traj::RunRecord>& runs) {
  std::set<traj::RunState> states;
  for (const auto& r : runs) states.insert(r.status);
  for (auto s : {traj::RunState::running, traj::RunState::failed, traj::RunState::interrupted}) {
    if (states.count(s)) return std::string(traj::to_string(s));
  }
  return runs.empty() ? "empty" : "finished";
}

json summary(const RunEntry& entry, const LoadedRun& run) {
  const auto& s = run.stats;
  int64_t done = 0;
  for (const auto& e : run.episodes) done += e.status != traj::RunState::running;
  // Planned episodes: every run schedules each task of the store
  // samples_per_task times (docs/serve.md).
  json total = 0;
  for (const auto& r : run.runs) {
    const auto& cfg = r.config_json;
    int64_t samples =
        cfg.contains("run") ? traj::field_or<int64_t>(cfg["run"], "samples_per_task", 0) : 0;
    if (samples <= 0) {
      total = nullptr;
      break;
    }
    total = total.get<int64_t>() + samples * static_cast<int64_t>(run.tasks);
  }
  if (total.is_number() && total.get<int64_t>() < static_cast<int64_t>(run.episodes.size())) {
    total = static_cast<int64_t>(run.episodes.size());
  }
  json runs = json::array();
  for (const auto& r : run.runs) {
    runs.push_back({{"id", r.id},
                    {"status", traj::to_string(r.status)},
                    {"created_at", r.created_at},
                    {"finished_at", r.finished_at},
                    {"model", r.model},
                    {"prompt_variant", r.prompt_variant},
                    {"gpu", r.gpu_name},
                    {"passforge_version", r.passforge_version}});
  }
  std::string mode = s.evaluations_full > 0           ? "full"
                     : s.evaluations_compile_only > 0 ? "compile_only"
                                                      : "none";
  auto experiment = experiments::ExperimentStore::open_read_only(entry.dir);
  json kind = nullptr;
  if (experiment.ok()) {
    auto record = experiment->load();
    if (record.ok() && *record) kind = (*record)->kind;
  }
  return {{"name", entry.name},
          {"path", entry.dir.string()},
          {"status", store_status(run.runs)},
          {"runs", runs},
          {"episodes", s.episodes},
          {"episodes_done", done},
          {"episodes_total", total},
          {"mean_best_as", s.quality.scored > 0 ? json(s.quality.mean_best_as) : json()},
          {"correct_rate", s.quality.scored > 0 ? json(s.quality.correct_rate) : json()},
          {"episodes_per_hour", opt(s.episodes_per_hour)},
          {"evaluations_per_hour", opt(s.evaluations_per_hour)},
          {"evaluation_mode", mode},
          {"experiment", kind},
          {"warnings", traj::stats_warnings(s)}};
}

json strings(const std::set<std::string>& s) {
  return json(std::vector<std::string>(s.begin(), s.end()));
}

}  // namespace

Result<json> run_summary_json(const RunEntry& entry) {
  PF_ASSIGN(auto run, load(entry, false));
  return summary(entry, run);
}

Result<json> run_detail_json(const RunEntry& entry) {
  PF_ASSIGN(auto run, load(entry, true));
  std::map<std::string, std::vector<const traj::EvaluationRecord*>> by_episode;
  for (const auto& e : run.evaluations) by_episode[e.episode_id].push_back(&e);

  struct TaskExtra {
    std::set<std::string> flags;
    std::map<std::string, int64_t> exits;
  };
  std::map<std::string, TaskExtra> extra;
  json episodes = json::array();
  for (const auto& ep : run.episodes) {
    std::set<std::string> flags, failures;
    const traj::EvaluationRecord* best = nullptr;
    for (const auto* ev : by_episode[ep.id]) {
      for (const auto& f : ev->hack_flags) flags.insert(f.get<std::string>());
      for (const auto& f : ev->failure_classes) failures.insert(f.get<std::string>());
      if (ev->id == ep.best_evaluation_id) best = ev;
    }
    auto& x = extra[ep.task_id];
    x.flags.insert(flags.begin(), flags.end());
    if (ep.status != traj::RunState::running)
      ++x.exits[ep.exit_reason.empty() ? "-" : ep.exit_reason];
    episodes.push_back({{"id", ep.id},
                        {"run_id", ep.run_id},
                        {"task", ep.task_id},
                        {"sample", ep.sample_index},
                        {"status", traj::to_string(ep.status)},
                        {"exit_reason", ep.exit_reason},
                        {"best_as", opt(ep.best_as)},
                        {"correct", best ? json(traj::is_correct(*best)) : json(false)},
                        {"speedup", best ? opt(best->geomean_speedup) : json()},
                        {"hidden_as", best ? opt(best->hidden_as) : json()},
                        {"turns", ep.turns},
                        {"evaluations", by_episode[ep.id].size()},
                        {"tokens", ep.prompt_tokens + ep.completion_tokens},
                        {"wall_time_s", ep.wall_time_s},
                        {"flags", strings(flags)},
                        {"failure_classes", strings(failures)}});
  }
  json tasks = json::array();
  for (const auto& t : run.stats.tasks) {
    const auto& q = t.quality;
    tasks.push_back({{"task", t.task_id},
                     {"episodes", t.episodes},
                     {"mean_best_as", q.mean_best_as},
                     {"max_best_as", q.max_best_as},
                     {"hidden_as", opt(q.hidden_as)},
                     {"correct_rate", q.correct_rate},
                     {"geomean_speedup", opt(q.geomean_speedup)},
                     {"fast_1", q.fast_p[2]},
                     {"flags", strings(extra[t.task_id].flags)},
                     {"exit_reasons", extra[t.task_id].exits}});
  }
  json out = summary(entry, run);
  out["stats"] = traj::to_json(run.stats);
  out["tasks"] = tasks;
  out["episode_rows"] = episodes;
  return out;
}

Result<std::string> run_chart_svg(const RunEntry& entry, const std::string& chart) {
  if (chart != "es_curve" && chart != "failures") {
    return make_error(ErrorCode::not_found, "no chart '" + chart + "' (es_curve, failures)");
  }
  PF_ASSIGN(auto run, load(entry, false));
  if (chart == "es_curve") return traj::es_curve_svg({run.stats});
  std::vector<traj::RowDatum> rows;
  for (const auto& [name, n] : run.stats.failure_classes) {
    rows.push_back({name, static_cast<double>(n), {}, {}, false});
  }
  std::sort(rows.begin(), rows.end(),
            [](const traj::RowDatum& a, const traj::RowDatum& b) { return a.value > b.value; });
  traj::RowChartOptions o;
  o.title = rows.empty() ? "No failure classes recorded" : "Evaluations per failure class";
  o.x_label = "evaluations";
  return traj::row_chart_svg(rows, o);
}

}  // namespace pf::serve
