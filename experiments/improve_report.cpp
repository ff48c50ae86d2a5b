// The per-round report of `passforge improve`, read from the stores.
#include <cstdio>

#include "experiments/experiment_store.h"
#include "experiments/improve_loop.h"
#include "trajectories/svg_chart.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/trajectory_store.h"

namespace pf::experiments {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Metrics of one session store of a round; nullopt when it has none yet.
Result<std::optional<ArmMetrics>> session_metrics(const fs::path& dir, const std::string& run_id,
                                                  traj::EvalMode& mode) {
  std::error_code ec;
  if (!fs::exists(traj::store_path(dir), ec)) return std::optional<ArmMetrics>();
  PF_ASSIGN(auto reader, traj::TrajectoryReader::open(dir));
  PF_ASSIGN(auto m, infer_mode(reader, {run_id}));
  if (m == traj::EvalMode::full) mode = m;
  PF_ASSIGN(auto episodes, read_episode_metrics(reader, run_id, m));
  if (episodes.empty()) return std::optional<ArmMetrics>();
  return std::optional<ArmMetrics>(aggregate(episodes));
}

std::string num(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

Result<ImproveReport> report_improve(const fs::path& dir) {
  PF_ASSIGN(auto store, ExperimentStore::open_read_only(dir));
  PF_ASSIGN(auto record, store.load());
  if (!record || record->kind != "improve") {
    return make_error(ErrorCode::not_found, dir.string() + " holds no improve loop");
  }
  ImproveReport report;
  report.id = record->id;
  auto spec = parse_improve_spec(record->spec_text, record->spec_path);
  report.rounds_planned = spec.ok() ? spec->rounds : 0;
  for (const auto& r : record->state.value("rounds", json::array())) {
    RoundRow row;
    row.round = r.value("round", 0);
    row.model = r.value("model", "");
    row.exemplars = r.value("exemplars", int64_t{0});
    for (const auto& s : r.value("done", json::array())) row.done.push_back(s.get<std::string>());
    row.selected = r.value("selected", int64_t{0});
    row.sft_records = r.value("sft_records", int64_t{0});
    row.dpo_records = r.value("dpo_records", int64_t{0});
    const fs::path rdir = dir / "rounds" / std::to_string(row.round);
    const std::string prefix = record->id + ".r" + std::to_string(row.round) + ".";
    PF_ASSIGN(row.train, session_metrics(rdir / "train", prefix + "train", report.mode));
    PF_ASSIGN(row.eval, session_metrics(rdir / "eval", prefix + "eval", report.mode));
    report.rounds.push_back(std::move(row));
  }
  return report;
}

std::string ImproveReport::table() const {
  const char* score = score_name(mode);
  std::string out = "improve loop " + id + ": " + std::to_string(rounds.size()) + " of " +
                    std::to_string(rounds_planned) + " rounds; " +
                    (mode == traj::EvalMode::full
                         ? std::string("full evaluation (score = best AS per episode)")
                         : std::string("COMPILE-ONLY evaluation (no GPU: no AS exists; score = "
                                       "best share of variants that compiled, matched and "
                                       "dry-ran; exports select only AS-scored data, so they are "
                                       "empty)")) +
                    "\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%5s %-18s %9s | %11s %8s | %11s %8s %7s %10s | %8s %5s %5s  %s\n",
                "round", "model", "exemplars", "train score", "correct", "eval score", "correct",
                "fast_1", "tokens/ep", "selected", "sft", "dpo", "steps done");
  out += buf;
  for (const auto& r : rounds) {
    auto cell = [](const std::optional<ArmMetrics>& m, bool correct) {
      if (!m) return std::string("-");
      return correct ? num("%.1f%%", 100 * m->correct_rate) : num("%.3f", m->mean_score);
    };
    std::string fast = r.eval && r.eval->fast_1 ? num("%.3f", *r.eval->fast_1) : "-";
    std::string tokens = r.eval ? num("%.0f", r.eval->tokens_per_episode) : "-";
    std::string done;
    for (const auto& s : r.done) done += (done.empty() ? "" : ",") + s;
    std::snprintf(
        buf, sizeof buf, "%5d %-18s %9lld | %11s %8s | %11s %8s %7s %10s | %8lld %5lld %5lld  %s\n",
        r.round, r.model.substr(0, 18).c_str(), static_cast<long long>(r.exemplars),
        cell(r.train, false).c_str(), cell(r.train, true).c_str(), cell(r.eval, false).c_str(),
        cell(r.eval, true).c_str(), fast.c_str(), tokens.c_str(),
        static_cast<long long>(r.selected), static_cast<long long>(r.sft_records),
        static_cast<long long>(r.dpo_records), done.c_str());
    out += buf;
  }
  out += std::string("(train/eval score: mean best ") + score +
         " per episode; eval = held-out tasks with fixed seeds, never selected or used as "
         "exemplars)\n";
  return out;
}

json ImproveReport::to_json() const {
  auto metrics = [](const std::optional<ArmMetrics>& m) -> json {
    if (!m) return nullptr;
    return {{"episodes", m->episodes},
            {"mean_score", m->mean_score},
            {"correct_rate", m->correct_rate},
            {"fast_1", m->fast_1 ? json(*m->fast_1) : json()},
            {"tokens_per_episode", m->tokens_per_episode},
            {"llm_latency_s_per_episode", m->latency_s_per_episode},
            {"turns_to_first_correct",
             m->turns_to_first_correct ? json(*m->turns_to_first_correct) : json()}};
  };
  json j = {{"id", id},
            {"mode", traj::to_string(mode)},
            {"score", score_name(mode)},
            {"rounds_planned", rounds_planned},
            {"rounds", json::array()}};
  for (const auto& r : rounds) {
    j["rounds"].push_back({{"round", r.round},
                           {"model", r.model},
                           {"exemplars", r.exemplars},
                           {"done", r.done},
                           {"train", metrics(r.train)},
                           {"eval", metrics(r.eval)},
                           {"selected", r.selected},
                           {"sft_records", r.sft_records},
                           {"dpo_records", r.dpo_records}});
  }
  return j;
}

std::string ImproveReport::svg() const {
  // One panel per unit: the score (AS or compile share) and the correct rate
  // (a share of episodes) do not share an axis.
  const std::string score = score_name(mode);
  traj::ChartSeries eval{"held-out", {}}, train{"training", {}};
  traj::ChartSeries eval_correct{"held-out", {}}, train_correct{"training", {}};
  for (const auto& r : rounds) {
    if (r.eval) {
      eval.points.emplace_back(r.round, r.eval->mean_score);
      eval_correct.points.emplace_back(r.round, r.eval->correct_rate);
    }
    if (r.train) {
      train.points.emplace_back(r.round, r.train->mean_score);
      train_correct.points.emplace_back(r.round, r.train->correct_rate);
    }
  }
  traj::ChartOptions o;
  o.x_label = "round";
  o.log_y = false;
  o.integer_x = true;
  o.height = 320;
  o.y_floor = 0;
  o.title = "improve " + id + ": mean best " + score + " per episode";
  o.y_label = score;
  std::string top = traj::line_chart_svg({eval, train}, o);
  o.title = "improve " + id + ": correct rate (share of episodes)";
  o.y_label = "correct rate";
  o.y_ceiling = 1;
  std::string bottom = traj::line_chart_svg({eval_correct, train_correct}, o);
  return traj::stack_svg({{top, o.height}, {bottom, o.height}}, o.width);
}

}  // namespace pf::experiments
