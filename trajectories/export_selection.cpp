#include "trajectories/export_selection.h"

#include <algorithm>

namespace pf::traj {
namespace {

//! a before b: higher score, then smaller id.
bool better(const EpisodeCandidate& a, const EpisodeCandidate& b) {
  double sa = a.score.value_or(-1), sb = b.score.value_or(-1);
  if (sa != sb) return sa > sb;
  return a.episode.id < b.episode.id;
}

//! Keeps the best candidate per key; the others are counted under `filter`.
template <typename KeyFn>
void keep_best_per(std::vector<EpisodeCandidate>& v, KeyFn key, const char* filter,
                   std::map<std::string, int64_t>& excluded) {
  std::sort(v.begin(), v.end(), better);
  std::map<std::string, bool> seen;
  std::vector<EpisodeCandidate> out;
  for (auto& c : v) {
    if (seen.emplace(key(c), true).second) {
      out.push_back(std::move(c));
    } else {
      ++excluded[filter];
    }
  }
  v = std::move(out);
}

//! A compile-only selecting evaluation (admitted only by
//! --include-compile-only) has no AS: --min-as cannot judge it.
bool unmeasured(const EpisodeCandidate& c) {
  const auto* e = c.best_evaluation();
  return e != nullptr && e->mode == EvalMode::compile_only;
}

}  // namespace

void score_candidate(EpisodeCandidate& c, const TaskRecord& task, const VerifyRule& rule) {
  EpisodeVerdict v = verify_episode(c.evaluations, task, rule);
  c.best = v.submit;
  c.verdict = v.verdict;
  c.score = v.submit ? c.evaluations[*v.submit].as_score : std::nullopt;
}

VerifyRule verify_rule(const ExportOptions& options, const CorrectnessLevels* levels) {
  VerifyRule r;
  r.min_correct = options.min_correct;
  r.include_flagged = options.include_flagged;
  r.include_unstable = options.include_unstable;
  r.include_compile_only = options.include_compile_only;
  r.levels = levels;
  return r;
}

std::optional<double> effective_min_as(const ExportOptions& options) {
  if (options.min_as) return options.min_as;
  if (options.format == ExportFormat::raw) return std::nullopt;
  return kDefaultMinAs;
}

Selection select_episodes(std::vector<EpisodeCandidate> all, const ExportOptions& options) {
  Selection sel;
  auto min_as = effective_min_as(options);
  bool raw = options.format == ExportFormat::raw;
  for (auto& c : all) {
    if (!raw && c.episode.status == RunState::running) {
      ++sel.excluded["unfinished"];
    } else if (!raw && !c.verdict.verified()) {
      ++sel.excluded[std::string(to_string(c.verdict.rejection))];
    } else if (min_as && !unmeasured(c) && !(c.score && *c.score > *min_as)) {
      ++sel.excluded["min_as"];
    } else if (options.max_tokens && c.tokens > *options.max_tokens) {
      ++sel.excluded["max_tokens"];
    } else if (!raw && !c.has_trained_turn) {
      ++sel.excluded["no_trained_turns"];
    } else {
      sel.kept.push_back(std::move(c));
    }
  }
  if (options.dedupe) {
    keep_best_per(
        sel.kept,
        [](const EpisodeCandidate& c) {
          // Episodes without a final workspace have nothing to duplicate.
          std::string ws = c.final_workspace();
          return c.episode.task_id + '\n' + (ws.empty() ? "episode:" + c.episode.id : ws);
        },
        "dedupe", sel.excluded);
  }
  if (options.best_only) {
    keep_best_per(
        sel.kept, [](const EpisodeCandidate& c) { return c.episode.task_id; }, "best_only",
        sel.excluded);
  }
  std::sort(sel.kept.begin(), sel.kept.end(),
            [](const auto& a, const auto& b) { return a.episode.id < b.episode.id; });
  return sel;
}

}  // namespace pf::traj
