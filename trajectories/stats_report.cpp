#include "trajectories/stats_report.h"

#include <cstdio>
#include <set>

#include "common/strings.h"
#include "trajectories/svg_chart.h"

namespace pf::traj {
namespace {

std::string fixed(double v, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string pct(double v) { return fixed(100 * v, 1) + "%"; }

std::string opt(const std::optional<double>& v, int digits = 3) {
  return v ? fixed(*v, digits) : "-";
}

Json opt_json(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

//! "0", "0.8", "1", "1.2": the p of fast_p as PassNet writes it.
std::string p_label(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", p);
  return buf;
}

//! A score cell; "-" when no episode was scored (0 would read as a result).
template <typename F>
std::string scored_or_dash(const RunStats& r, F f) {
  return r.quality.scored == 0 ? std::string("-") : f(r);
}

Json quality_json(const Quality& q) {
  Json fast = Json::object();
  for (size_t i = 0; i < kFastPThresholds.size(); ++i) {
    fast[p_label(kFastPThresholds[i])] = q.fast_p[i];
  }
  Json curve = nullptr;
  if (q.es_curve) {
    curve = Json::array();
    for (size_t i = 0; i < kLevels; ++i) {
      curve.push_back({{"t", kMinLevel + static_cast<int>(i)}, {"es", (*q.es_curve)[i]}});
    }
  }
  return {{"scored_episodes", q.scored},
          {"episodes_without_success", q.without_success},
          {"mean_best_as", q.mean_best_as},
          {"max_best_as", q.max_best_as},
          {"correct_rate", q.correct_rate},
          {"fast_p", fast},
          {"fast_p_variants", q.variants},
          {"geomean_speedup_correct", opt_json(q.geomean_speedup)},
          {"hidden_as", opt_json(q.hidden_as)},
          {"turns_to_first_correct", opt_json(q.turns_to_first_correct)},
          {"episodes_reaching_correct", q.reached_correct},
          {"es_curve", curve}};
}

//! A table with a label column and one column per run.
class Table {
 public:
  explicit Table(size_t columns) : columns_(columns) {}
  void row(const std::string& label, std::vector<std::string> cells) {
    rows_.push_back({label, std::move(cells)});
  }
  void section(const std::string& title) { rows_.push_back({"#" + title, {}}); }
  std::string render() const {
    size_t lw = 0;
    std::vector<size_t> cw(columns_, 0);
    for (const auto& [label, cells] : rows_) {
      if (label[0] == '#') continue;
      lw = std::max(lw, label.size());
      for (size_t i = 0; i < cells.size() && i < columns_; ++i) cw[i] = std::max(cw[i], cells[i].size());
    }
    std::string out;
    for (const auto& [label, cells] : rows_) {
      if (label[0] == '#') {
        out += "\n" + label.substr(1) + "\n";
        continue;
      }
      out += "  " + label + std::string(lw - label.size() + 2, ' ');
      for (size_t i = 0; i < cells.size() && i < columns_; ++i) {
        out += cells[i] + std::string(cw[i] - cells[i].size() + 3, ' ');
      }
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += "\n";
    }
    return out;
  }

 private:
  size_t columns_;
  std::vector<std::pair<std::string, std::vector<std::string>>> rows_;
};

template <typename F>
std::vector<std::string> cells(const std::vector<RunStats>& runs, F f) {
  std::vector<std::string> out;
  for (const auto& r : runs) out.push_back(f(r));
  return out;
}

std::string counts(const std::map<std::string, int64_t>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? "0" : std::to_string(it->second);
}

}  // namespace

Json to_json(const RunStats& s) {
  Json tasks = Json::array();
  for (const auto& t : s.tasks) {
    Json q = quality_json(t.quality);
    q["task"] = t.task_id;
    q["episodes"] = t.episodes;
    tasks.push_back(q);
  }
  Json gpus = Json::array();
  for (const auto& g : s.gpus) {
    gpus.push_back({{"device", g.device},
                    {"requests", g.requests},
                    {"busy_s", g.busy_s},
                    {"wall_s", g.wall_s},
                    {"busy_share", g.busy_share}});
  }
  return {{"label", s.label},
          {"run_ids", s.run_ids},
          {"models", s.models},
          {"prompt_variants", s.prompt_variants},
          {"failure_score", s.failure_score},
          {"episodes", s.episodes},
          {"status", s.status},
          {"exit_reasons", s.exit_reasons},
          {"quality", quality_json(s.quality)},
          {"failure_classes", s.failure_classes},
          {"hack_flags", s.hack_flags},
          {"unstable_evaluations", s.unstable_evaluations},
          {"evaluations", {{"full", s.evaluations_full},
                           {"compile_only", s.evaluations_compile_only},
                           {"compile_checks", s.compile_checks}}},
          {"llm_calls", s.llm_calls},
          {"turns_per_episode", s.turns_per_episode},
          {"prompt_tokens_per_turn", opt_json(s.prompt_tokens_per_turn)},
          {"completion_tokens_per_turn", opt_json(s.completion_tokens_per_turn)},
          {"latency_ms_per_turn", opt_json(s.latency_ms_per_turn)},
          {"wall_hours", opt_json(s.wall_hours)},
          {"episodes_per_hour", opt_json(s.episodes_per_hour)},
          {"evaluations_per_hour", opt_json(s.evaluations_per_hour)},
          {"warnings", stats_warnings(s)},
          {"gpus", gpus},
          {"gpu_queue", {{"mean", opt_json(s.gpu_queue_mean)}, {"max", s.gpu_queue_max}}},
          {"tasks", tasks}};
}

std::vector<std::string> stats_warnings(const RunStats& s) {
  std::vector<std::string> w;
  int64_t evals = s.evaluations_full + s.evaluations_compile_only;
  if (s.evaluations_compile_only > 0) {
    w.push_back(s.label + ": " + std::to_string(s.evaluations_compile_only) + " of " +
                std::to_string(evals) +
                " evaluations were COMPILE-ONLY (no GPU run): they have no measured AS and "
                "count as failures here");
  }
  int64_t running = s.status.count("running") ? s.status.at("running") : 0;
  if (running > 0) {
    w.push_back(s.label + ": " + std::to_string(running) +
                " episodes are still running or were killed (resume them); they are not scored");
  }
  int64_t flagged = 0;
  for (const auto& [k, n] : s.hack_flags) flagged += n;
  if (flagged > 0 || s.unstable_evaluations > 0) {
    w.push_back(s.label + ": " + std::to_string(flagged) + " hack flags and " +
                std::to_string(s.unstable_evaluations) +
                " unstable evaluations are excluded from the scores");
  }
  return w;
}

std::string stats_table(const std::vector<RunStats>& runs) {
  Table t(runs.size());
  t.row("", cells(runs, [](const RunStats& r) { return r.label; }));
  t.row("runs", cells(runs, [](const RunStats& r) { return join(r.run_ids, ","); }));
  t.row("models", cells(runs, [](const RunStats& r) { return join(r.models, ","); }));
  t.row("prompt variants", cells(runs, [](const RunStats& r) { return join(r.prompt_variants, ","); }));
  t.row("episodes", cells(runs, [](const RunStats& r) { return std::to_string(r.episodes); }));
  t.row("  finished/interrupted/failed/running", cells(runs, [](const RunStats& r) {
          return counts(r.status, "finished") + "/" + counts(r.status, "interrupted") + "/" +
                 counts(r.status, "failed") + "/" + counts(r.status, "running");
        }));
  t.section("scores (per scored episode; no counting evaluation = b)");
  t.row("mean best AS", cells(runs, [](const RunStats& r) {
          return scored_or_dash(r, [](const RunStats& x) { return fixed(x.quality.mean_best_as, 4); });
        }));
  t.row("episodes without success", cells(runs, [](const RunStats& r) {
          return std::to_string(r.quality.without_success) + " of " + std::to_string(r.quality.scored);
        }));
  t.row("correct rate (t=-5)", cells(runs, [](const RunStats& r) {
          return scored_or_dash(r, [](const RunStats& x) { return pct(x.quality.correct_rate); });
        }));
  for (size_t i = 0; i < kFastPThresholds.size(); ++i) {
    t.row("fast_" + p_label(kFastPThresholds[i]), cells(runs, [i](const RunStats& r) {
            return scored_or_dash(r, [i](const RunStats& x) { return pct(x.quality.fast_p[i]); });
          }));
  }
  t.row("geomean speedup (correct)", cells(runs, [](const RunStats& r) { return opt(r.quality.geomean_speedup); }));
  t.row("hidden-variant AS", cells(runs, [](const RunStats& r) { return opt(r.quality.hidden_as, 4); }));
  t.row("turns to first correct", cells(runs, [](const RunStats& r) {
          return opt(r.quality.turns_to_first_correct, 2) + " (" +
                 std::to_string(r.quality.reached_correct) + " episodes)";
        }));
  t.section("cost and throughput");
  t.row("turns per episode", cells(runs, [](const RunStats& r) { return fixed(r.turns_per_episode, 2); }));
  t.row("prompt tokens / turn", cells(runs, [](const RunStats& r) { return opt(r.prompt_tokens_per_turn, 0); }));
  t.row("completion tokens / turn", cells(runs, [](const RunStats& r) { return opt(r.completion_tokens_per_turn, 0); }));
  t.row("LLM latency ms / turn", cells(runs, [](const RunStats& r) { return opt(r.latency_ms_per_turn, 0); }));
  t.row("wall hours", cells(runs, [](const RunStats& r) { return opt(r.wall_hours, 2); }));
  t.row("episodes / hour", cells(runs, [](const RunStats& r) { return opt(r.episodes_per_hour, 1); }));
  t.row("evaluations / hour", cells(runs, [](const RunStats& r) { return opt(r.evaluations_per_hour, 1); }));
  std::set<std::string> devices;
  for (const auto& r : runs) {
    for (const auto& g : r.gpus) devices.insert(g.device);
  }
  if (!devices.empty()) {
    t.section("GPU utilisation: busy share of wall time (worker requests)");
    for (const auto& d : devices) {
      t.row("GPU " + d, cells(runs, [&](const RunStats& r) -> std::string {
              for (const auto& g : r.gpus) {
                if (g.device == d) {
                  return fixed(100 * g.busy_share, 0) + "% (" + std::to_string(g.requests) + ")";
                }
              }
              return "-";
            }));
    }
    t.row("GPU queue mean / max", cells(runs, [](const RunStats& r) {
            return opt(r.gpu_queue_mean, 2) + " / " + std::to_string(r.gpu_queue_max);
          }));
  }
  t.section("evaluations");
  t.row("full / COMPILE-ONLY / compile checks", cells(runs, [](const RunStats& r) {
          return std::to_string(r.evaluations_full) + " / " +
                 std::to_string(r.evaluations_compile_only) + " / " + std::to_string(r.compile_checks);
        }));
  t.row("unstable", cells(runs, [](const RunStats& r) { return std::to_string(r.unstable_evaluations); }));
  std::set<std::string> classes, flags, exits;
  for (const auto& r : runs) {
    for (const auto& [k, n] : r.failure_classes) classes.insert(k);
    for (const auto& [k, n] : r.hack_flags) flags.insert(k);
    for (const auto& [k, n] : r.exit_reasons) exits.insert(k);
  }
  for (const auto& c : classes) {
    t.row("failure: " + c, cells(runs, [&](const RunStats& r) { return counts(r.failure_classes, c); }));
  }
  for (const auto& f : flags) {
    t.row("hack flag: " + f, cells(runs, [&](const RunStats& r) { return counts(r.hack_flags, f); }));
  }
  for (const auto& e : exits) {
    t.row("exit: " + e, cells(runs, [&](const RunStats& r) { return counts(r.exit_reasons, e); }));
  }
  t.section("per task: mean best AS / correct rate / fast_1 (episodes)");
  std::set<std::string> task_ids;
  for (const auto& r : runs) {
    for (const auto& ts : r.tasks) task_ids.insert(ts.task_id);
  }
  for (const auto& id : task_ids) {
    t.row(id, cells(runs, [&](const RunStats& r) -> std::string {
            for (const auto& ts : r.tasks) {
              if (ts.task_id != id) continue;
              return fixed(ts.quality.mean_best_as) + " / " + pct(ts.quality.correct_rate) + " / " +
                     pct(ts.quality.fast_p[2]) + " (" + std::to_string(ts.episodes) + ")";
            }
            return "-";
          }));
  }
  std::string out = t.render();
  for (const auto& r : runs) {
    for (const auto& w : stats_warnings(r)) out += "\nWARNING: " + w;
  }
  if (out.back() != '\n') out += "\n";
  return out;
}

std::string es_curve_svg(const std::vector<RunStats>& runs) {
  std::vector<ChartSeries> series;
  for (const auto& r : runs) {
    if (!r.quality.es_curve) continue;
    ChartSeries s{r.label, {}};
    for (size_t i = 0; i < kLevels; ++i) {
      s.points.push_back({static_cast<double>(kMinLevel + static_cast<int>(i)), (*r.quality.es_curve)[i]});
    }
    series.push_back(std::move(s));
  }
  return es_curve_chart(series, "Mean ES_t of the episodes' best evaluations");
}

std::string es_curve_chart(const std::vector<ChartSeries>& series, const std::string& title) {
  ChartOptions o;
  o.title = title;
  o.x_label = "tolerance level t (looser to the right)";
  o.y_label = "ES_t";
  o.integer_x = true;
  o.markers.push_back({-5, "t = -5: correctness level"});
  return line_chart_svg(series, o);
}

}  // namespace pf::traj
