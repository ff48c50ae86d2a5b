#include "experiments/episode_metrics.h"

#include <algorithm>
#include <map>

#include "agent/loop/episode_state.h"
#include "trajectories/result_summary.h"

namespace pf::experiments {
namespace {

bool counts_for(const traj::EvaluationRecord& ev, traj::EvalMode mode) {
  if (mode == traj::EvalMode::full) return traj::counts_as_success(ev, false);
  return ev.mode == traj::EvalMode::compile_only;
}

double score_of(const traj::EvaluationRecord& ev, traj::EvalMode mode) {
  return mode == traj::EvalMode::full ? ev.as_score.value_or(0) : agent::compile_share(ev.result);
}

}  // namespace

traj::VerifyRule experiment_rule(traj::EvalMode mode) {
  traj::VerifyRule rule;
  rule.include_compile_only = mode == traj::EvalMode::compile_only;
  return rule;
}

const char* score_name(traj::EvalMode mode) {
  return mode == traj::EvalMode::full ? "AS" : "compile share";
}

Result<traj::EvalMode> infer_mode(traj::TrajectoryReader& reader,
                                  const std::vector<std::string>& run_ids) {
  PF_ASSIGN(auto runs, reader.runs());
  for (const auto& id : run_ids) {
    traj::EpisodeFilter filter;
    filter.run_id = id;
    PF_ASSIGN(auto episodes, reader.episodes(filter));
    for (const auto& e : episodes) {
      PF_ASSIGN(auto evaluations, reader.evaluations(e.id));
      for (const auto& ev : evaluations) {
        if (ev.kind != traj::EvalKind::compile && ev.mode == traj::EvalMode::full) {
          return traj::EvalMode::full;
        }
      }
    }
  }
  return traj::EvalMode::compile_only;
}

Result<std::vector<EpisodeMetrics>> read_episode_metrics(traj::TrajectoryReader& reader,
                                                         const std::string& run_id,
                                                         traj::EvalMode mode) {
  traj::EpisodeFilter filter;
  filter.run_id = run_id;
  PF_ASSIGN(auto episodes, reader.episodes(filter));
  PF_ASSIGN(auto task_list, reader.tasks());
  std::map<std::string, traj::TaskRecord> tasks;
  for (auto& t : task_list) tasks[t.id] = std::move(t);
  const traj::VerifyRule rule = experiment_rule(mode);
  std::vector<EpisodeMetrics> out;
  for (const auto& e : episodes) {
    if (e.status == traj::RunState::running) continue;
    EpisodeMetrics m;
    m.episode_id = e.id;
    m.task_id = e.task_id;
    m.sample = e.sample_index;
    m.status = e.status;
    m.tokens = e.prompt_tokens + e.completion_tokens;
    m.wall_s = e.wall_time_s;
    m.turns = e.turns;
    PF_ASSIGN(auto evaluations, reader.evaluations(e.id));
    static const traj::TaskRecord kUnknownTask;
    auto task_it = tasks.find(e.task_id);
    const traj::TaskRecord& task = task_it == tasks.end() ? kUnknownTask : task_it->second;
    const traj::EvaluationRecord* best = nullptr;
    double failure = traj::kDefaultFailureScore;
    for (const auto& ev : evaluations) {
      if (ev.mode == traj::EvalMode::full) failure = traj::failure_score(ev.result);
      if (!counts_for(ev, mode)) continue;
      if (!best || score_of(ev, mode) > score_of(*best, mode)) best = &ev;
      if (!m.turns_to_first_correct && traj::verify_evaluation(ev, task, rule).verified()) {
        m.turns_to_first_correct = ev.turn;
      }
    }
    auto verdict = traj::verify_episode(evaluations, task, rule);
    m.correct = verdict.verdict.verified();
    if (verdict.submit) {
      const auto& submit = evaluations[*verdict.submit];
      m.submit_workspace_sha = submit.workspace_sha;
      m.submit_score =
          mode == traj::EvalMode::full ? submit.as_score : std::optional(score_of(submit, mode));
    }
    if (best) {
      m.score = score_of(*best, mode);
      m.best_workspace_sha = best->workspace_sha;
      m.flagged = best->hack_flags.is_array() && !best->hack_flags.empty();
    } else {
      m.score = mode == traj::EvalMode::full ? failure : 0.0;
    }
    if (mode == traj::EvalMode::full) {
      int64_t visible = 0, fast = 0;
      if (best) {
        for (const auto& v : traj::variant_outcomes(best->result)) {
          if (v.hidden) continue;
          ++visible;
          if (v.correct && v.speedup.value_or(0) > 1.0) ++fast;
        }
      }
      m.fast_1 = visible > 0 ? static_cast<double>(fast) / static_cast<double>(visible) : 0.0;
    }
    PF_ASSIGN(auto messages, reader.messages(e.id));
    for (const auto& msg : messages) m.llm_latency_s += msg.latency_ms.value_or(0) / 1000.0;
    out.push_back(std::move(m));
  }
  std::sort(out.begin(), out.end(), [](const EpisodeMetrics& a, const EpisodeMetrics& b) {
    return std::tie(a.task_id, a.sample) < std::tie(b.task_id, b.sample);
  });
  return out;
}

ArmMetrics aggregate(const std::vector<EpisodeMetrics>& episodes) {
  ArmMetrics a;
  a.episodes = static_cast<int64_t>(episodes.size());
  if (episodes.empty()) return a;
  double n = static_cast<double>(episodes.size());
  double fast = 0, turns = 0;
  bool any_fast = false;
  for (const auto& e : episodes) {
    a.mean_score += e.score / n;
    a.correct_rate += (e.correct ? 1.0 : 0.0) / n;
    a.tokens_per_episode += static_cast<double>(e.tokens) / n;
    a.latency_s_per_episode += e.llm_latency_s / n;
    a.wall_s_per_episode += e.wall_s / n;
    if (e.fast_1) {
      any_fast = true;
      fast += *e.fast_1 / n;
    }
    if (e.turns_to_first_correct) {
      ++a.reached_correct;
      turns += static_cast<double>(*e.turns_to_first_correct);
    }
  }
  if (any_fast) a.fast_1 = fast;
  if (a.reached_correct > 0)
    a.turns_to_first_correct = turns / static_cast<double>(a.reached_correct);
  return a;
}

}  // namespace pf::experiments
