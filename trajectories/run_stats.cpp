#include "trajectories/run_stats.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "trajectories/ids.h"
#include "trajectories/result_summary.h"
#include "trajectories/trajectory_reader.h"

namespace pf::traj {
namespace {

//! One scored episode as the quality metrics see it.
struct Scored {
  const EpisodeRecord* episode = nullptr;
  const EvaluationRecord* best = nullptr;
  std::optional<int64_t> first_correct_turn;
  int visible_variants = 0;  // of its task
  int hidden_variants = 0;
};

void count_strings(const Json& arr, std::map<std::string, int64_t>& into) {
  if (!arr.is_array()) return;
  for (const auto& v : arr) {
    if (v.is_string()) ++into[v.get<std::string>()];
  }
}

std::optional<double> mean(double sum, int64_t n) {
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

Quality quality_of(const std::vector<Scored>& eps, double b) {
  Quality q;
  q.scored = static_cast<int64_t>(eps.size());
  double as_sum = 0, hidden_sum = 0, log_sum = 0, turns_sum = 0;
  int64_t correct = 0, hidden_n = 0, speedups = 0, curve_n = 0;
  std::array<int64_t, kFastPThresholds.size()> fast{};
  std::array<double, kLevels> curve{};
  for (const auto& s : eps) {
    double as = s.best ? *s.best->as_score : b;
    if (!s.best) ++q.without_success;
    as_sum += as;
    q.max_best_as = std::max(q.max_best_as, as);  // AS > 0 by definition
    if (s.best && is_correct(*s.best)) ++correct;
    if (s.first_correct_turn) {
      ++q.reached_correct;
      turns_sum += static_cast<double>(*s.first_correct_turn);
    }
    if (s.best) {
      for (const auto& v : variant_outcomes(s.best->result)) {
        if (v.hidden) continue;
        ++q.variants;
        if (!v.correct) continue;
        double sp = v.speedup.value_or(0);
        for (size_t i = 0; i < kFastPThresholds.size(); ++i) fast[i] += sp > kFastPThresholds[i];
        if (sp > 0) {
          log_sum += std::log(sp);
          ++speedups;
        }
      }
      if (s.best->hidden_as) {
        hidden_sum += *s.best->hidden_as;
        ++hidden_n;
      }
    } else {
      q.variants += s.visible_variants;
      if (s.hidden_variants > 0) {
        hidden_sum += b;
        ++hidden_n;
      }
    }
    // The curve: the best evaluation's ES_t, or b at every level.
    std::array<double, kLevels> es;
    es.fill(b);
    bool usable = true;
    if (s.best) {
      usable = s.best->es_curve.is_array() && !s.best->es_curve.empty();
      if (usable) {
        for (const auto& p : s.best->es_curve) {
          int64_t t = field_or(p, "t", int64_t{100});
          if (t >= kMinLevel && t <= kMaxLevel) {
            es[static_cast<size_t>(t - kMinLevel)] = field_or(p, "es", b);
          }
        }
      }
    }
    if (usable) {
      for (size_t i = 0; i < kLevels; ++i) curve[i] += es[i];
      ++curve_n;
    }
  }
  if (q.scored == 0) return q;
  q.mean_best_as = as_sum / static_cast<double>(q.scored);
  q.correct_rate = static_cast<double>(correct) / static_cast<double>(q.scored);
  for (size_t i = 0; i < fast.size(); ++i) {
    q.fast_p[i] = q.variants ? static_cast<double>(fast[i]) / static_cast<double>(q.variants) : 0;
  }
  if (speedups) q.geomean_speedup = std::exp(log_sum / static_cast<double>(speedups));
  q.hidden_as = mean(hidden_sum, hidden_n);
  q.turns_to_first_correct = mean(turns_sum, q.reached_correct);
  if (curve_n) {
    for (auto& c : curve) c /= static_cast<double>(curve_n);
    q.es_curve = curve;
  }
  return q;
}

// Sessions add up: a GPU's busy time over the wall time of every session it
// served; the queue's waiting time over the sessions' wall time (each
// session's queue figures are on every one of its rows: counted once).
void add_gpu_usage(const std::vector<GpuUsageRecord>& rows, RunStats& st) {
  std::map<std::string, GpuStats> by_device;
  std::map<std::pair<std::string, std::string>, const GpuUsageRecord*> sessions;
  for (const auto& u : rows) {
    GpuStats& g = by_device[u.device];
    g.device = u.device;
    g.requests += u.requests;
    g.busy_s += u.busy_s;
    g.wall_s += u.wall_s;
    sessions.emplace(std::make_pair(u.run_id, u.session_started_at), &u);
  }
  for (auto& [device, g] : by_device) {
    g.busy_share = g.wall_s > 0 ? g.busy_s / g.wall_s : 0;
    st.gpus.push_back(g);
  }
  double wait = 0, wall = 0;
  for (const auto& [key, u] : sessions) {
    wait += u->queue_wait_s;
    wall += u->wall_s;
    st.gpu_queue_max = std::max(st.gpu_queue_max, u->max_queue);
  }
  if (wall > 0) st.gpu_queue_mean = wait / wall;
}

}  // namespace

Result<RunStats> compute_stats(TrajectoryReader& reader, const std::string& label) {
  RunStats st;
  st.label = label;
  std::vector<RunRecord> runs;
  std::vector<TaskRecord> tasks;
  std::vector<EpisodeRecord> episodes;
  std::vector<EvaluationRecord> evaluations;
  std::vector<LlmCallRecord> calls;
  std::vector<GpuUsageRecord> gpu_usage;
  PF_TRY(reader.snapshot([&]() -> Status {
    PF_ASSIGN(gpu_usage, reader.gpu_usage());
    PF_ASSIGN(runs, reader.runs());
    PF_ASSIGN(tasks, reader.tasks());
    PF_ASSIGN(episodes, reader.episodes());
    PF_ASSIGN(evaluations, reader.evaluations(""));
    PF_ASSIGN(calls, reader.llm_call_summaries());
    return ok_status();
  }));
  add_gpu_usage(gpu_usage, st);
  std::set<std::string> models, variants;
  for (const auto& r : runs) {
    st.run_ids.push_back(r.id);
    if (!r.model.empty()) models.insert(r.model);
  }
  for (const auto& e : episodes) {
    if (!e.model.empty()) models.insert(e.model);
    if (!e.prompt_variant.empty()) variants.insert(e.prompt_variant);
  }
  st.models.assign(models.begin(), models.end());
  st.prompt_variants.assign(variants.begin(), variants.end());
  for (const auto& e : evaluations) {
    if (e.result.is_object() && e.result.contains("b")) {
      st.failure_score = failure_score(e.result);
      break;
    }
  }

  std::map<std::string, std::pair<int, int>> task_variants;  // visible, hidden
  for (const auto& t : tasks) {
    auto& [vis, hid] = task_variants[t.id];
    if (!t.variants.is_array()) continue;
    for (const auto& v : t.variants) (field_or(v, "hidden", false) ? hid : vis)++;
  }
  std::map<std::string, std::vector<const EvaluationRecord*>> by_episode;
  for (const auto& e : evaluations) {
    by_episode[e.episode_id].push_back(&e);
    count_strings(e.failure_classes, st.failure_classes);
    count_strings(e.hack_flags, st.hack_flags);
    if (e.unstable) ++st.unstable_evaluations;
    if (e.kind == EvalKind::compile) {
      ++st.compile_checks;
    } else if (e.mode == EvalMode::full) {
      ++st.evaluations_full;
    } else {
      ++st.evaluations_compile_only;
    }
  }

  std::vector<Scored> scored;
  std::map<std::string, std::vector<Scored>> scored_by_task;
  std::map<std::string, int64_t> episodes_by_task;
  std::optional<double> first_start, last_end;
  int64_t turns = 0;
  for (const auto& ep : episodes) {
    ++st.episodes;
    ++episodes_by_task[ep.task_id];
    ++st.status[std::string(to_string(ep.status))];
    turns += ep.turns;
    if (auto t = parse_iso8601(ep.started_at)) first_start = std::min(first_start.value_or(*t), *t);
    if (ep.status == RunState::running) continue;
    if (!ep.exit_reason.empty()) ++st.exit_reasons[ep.exit_reason];
    if (auto t = parse_iso8601(ep.finished_at)) last_end = std::max(last_end.value_or(*t), *t);
    Scored s;
    s.episode = &ep;
    auto tv = task_variants[ep.task_id];
    s.visible_variants = tv.first;
    s.hidden_variants = tv.second;
    for (const auto* e : by_episode[ep.id]) {
      if (!counts_as_success(*e, false)) continue;
      if (!s.best || *e->as_score > *s.best->as_score) s.best = e;
      if (!s.first_correct_turn && is_correct(*e)) s.first_correct_turn = e->turn;
    }
    scored.push_back(s);
    scored_by_task[ep.task_id].push_back(s);
  }
  st.quality = quality_of(scored, st.failure_score);
  for (const auto& [task, n] : episodes_by_task) {
    st.tasks.push_back({task, n, quality_of(scored_by_task[task], st.failure_score)});
  }
  if (st.episodes) st.turns_per_episode = static_cast<double>(turns) / static_cast<double>(st.episodes);

  double prompt = 0, completion = 0, latency = 0;
  for (const auto& c : calls) {
    prompt += static_cast<double>(c.prompt_tokens);
    completion += static_cast<double>(c.completion_tokens);
    latency += c.latency_ms;
  }
  st.llm_calls = static_cast<int64_t>(calls.size());
  st.prompt_tokens_per_turn = mean(prompt, st.llm_calls);
  st.completion_tokens_per_turn = mean(completion, st.llm_calls);
  st.latency_ms_per_turn = mean(latency, st.llm_calls);

  if (first_start && last_end && *last_end > *first_start) {
    st.wall_hours = (*last_end - *first_start) / 3600.0;
    st.episodes_per_hour = static_cast<double>(st.quality.scored) / *st.wall_hours;
    st.evaluations_per_hour =
        static_cast<double>(st.evaluations_full + st.evaluations_compile_only) / *st.wall_hours;
  }
  return st;
}

}  // namespace pf::traj
