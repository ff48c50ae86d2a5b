#include "agent/scheduler/run_summary.h"

#include <algorithm>
#include <cstdio>

#include "agent/loop/episode_state.h"
#include "trajectories/result_summary.h"

namespace pf::agent {
namespace {

std::string compact_count(int64_t n) {
  char buf[32];
  if (n >= 1'000'000) {
    std::snprintf(buf, sizeof buf, "%.1fM", static_cast<double>(n) / 1e6);
  } else if (n >= 10'000) {
    std::snprintf(buf, sizeof buf, "%.1fk", static_cast<double>(n) / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(n));
  }
  return buf;
}

void add(SummaryRow& row, const traj::EpisodeRecord& e, std::optional<double> score, bool correct) {
  ++row.episodes;
  if (e.status == traj::RunState::running || e.status == traj::RunState::interrupted) {
    ++row.unfinished;
  }
  if (score) {
    ++row.scored;
    row.score_sum += *score;
  }
  if (correct) ++row.correct;
  row.turns += e.turns;
  row.tokens += e.prompt_tokens + e.completion_tokens;
  if (!e.exit_reason.empty()) ++row.exits[e.exit_reason];
}

}  // namespace

std::optional<double> SummaryRow::mean_score() const {
  if (scored == 0) return std::nullopt;
  return score_sum / static_cast<double>(scored);
}

Result<RunSummary> summarize_run(traj::TrajectoryReader& reader, const std::string& run_id,
                                 traj::EvalMode mode) {
  RunSummary s;
  s.mode = mode;
  s.total.task_id = "all";
  traj::EpisodeFilter filter;
  filter.run_id = run_id;
  PF_ASSIGN(auto episodes, reader.episodes(filter));
  std::map<std::string, size_t> row_of;
  for (const auto& e : episodes) {
    PF_ASSIGN(auto evaluations, reader.evaluations(e.id));
    s.evaluations += static_cast<int64_t>(evaluations.size());
    std::optional<double> score;
    bool correct = false;
    for (const auto& ev : evaluations) {
      if (mode == traj::EvalMode::full) {
        if (traj::counts_as_success(ev, false) && (!score || *ev.as_score > *score)) {
          score = ev.as_score;
          correct = traj::is_correct(ev);
        }
      } else if (ev.mode == traj::EvalMode::compile_only) {
        double share = compile_share(ev.result);
        if (!score || share > *score) score = share;
      }
    }
    if (mode == traj::EvalMode::compile_only) correct = score.value_or(0) >= 1.0;
    auto [it, inserted] = row_of.emplace(e.task_id, s.tasks.size());
    if (inserted) {
      s.tasks.emplace_back();
      s.tasks.back().task_id = e.task_id;
    }
    add(s.tasks[it->second], e, score, correct);
    add(s.total, e, score, correct);
  }
  return s;
}

void add_unrecorded_episode(RunSummary& summary, const EpisodeResult& r, bool in_store) {
  auto row = std::find_if(summary.tasks.begin(), summary.tasks.end(),
                          [&](const SummaryRow& t) { return t.task_id == r.task_id; });
  if (row == summary.tasks.end()) {
    summary.tasks.emplace_back();
    summary.tasks.back().task_id = r.task_id;
    row = summary.tasks.end() - 1;
  }
  const std::string reason(to_string(r.exit_reason));
  for (SummaryRow* target : {&*row, &summary.total}) {
    ++target->exits[reason];
    if (in_store) {
      target->unfinished = std::max<int64_t>(0, target->unfinished - 1);
      continue;
    }
    ++target->episodes;
    std::optional<double> score =
        summary.mode == traj::EvalMode::full ? r.best_as : r.best_compile_share;
    if (score) {
      ++target->scored;
      target->score_sum += *score;
    }
    if (r.correct) ++target->correct;
    target->turns += r.turns;
    target->tokens += r.prompt_tokens + r.completion_tokens;
  }
}

std::string RunSummary::table() const {
  // Compile-only runs check no numerics: "passed" = every variant compiled,
  // matched and passed the dry run, never "correct".
  const bool full = mode == traj::EvalMode::full;
  const char* score_name = full ? "best AS" : "compile";
  const char* correct_name = full ? "correct" : "passed";
  std::string out;
  char buf[512];
  size_t width = 24;
  for (const auto& r : tasks) width = std::max(width, r.task_id.size());
  std::snprintf(buf, sizeof buf, "%-*s %8s %9s %8s %7s %8s  %s\n", static_cast<int>(width), "task",
                "episodes", score_name, correct_name, "turns", "tokens", "exit reasons");
  out += buf;
  auto line = [&](const SummaryRow& r) {
    std::string score = "-";
    if (auto m = r.mean_score()) {
      std::snprintf(buf, sizeof buf, "%.3f", *m);
      score = buf;
    }
    std::string correct = r.episodes > 0 ? std::to_string(100 * r.correct / r.episodes) + "%" : "-";
    double turns =
        r.episodes > 0 ? static_cast<double>(r.turns) / static_cast<double>(r.episodes) : 0;
    std::string exits;
    for (const auto& [reason, n] : r.exits) {
      exits += (exits.empty() ? "" : ", ") + reason + " " + std::to_string(n);
    }
    if (r.unfinished > 0) {
      exits += (exits.empty() ? "" : ", ") + std::to_string(r.unfinished) + " unfinished";
    }
    std::snprintf(buf, sizeof buf, "%-*s %8lld %9s %8s %7.1f %8s  %s\n", static_cast<int>(width),
                  r.task_id.c_str(), static_cast<long long>(r.episodes), score.c_str(),
                  correct.c_str(), turns, compact_count(r.tokens).c_str(), exits.c_str());
    out += buf;
  };
  for (const auto& r : tasks) line(r);
  if (tasks.size() != 1) line(total);
  return out;
}

}  // namespace pf::agent
