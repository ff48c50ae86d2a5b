#include "experiments/ab_report.h"

#include <cmath>
#include <cstdio>

#include "trajectories/svg_chart.h"
#include "trajectories/svg_rows.h"

namespace pf::experiments {
namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string p_text(double p) {
  return p < 0.001 ? fmt("%.1e", p) : fmt("%.3f", p);
}

// The fewest tasks for which unanimous signs reach p < alpha under the exact
// Wilcoxon test (2 / 2^n < alpha): the floor when the differences do not vary.
int64_t unanimous_minimum() {
  int64_t n = 1;
  while (2.0 / std::pow(2.0, static_cast<double>(n)) >= kAlpha) ++n;
  return n;
}

}  // namespace

PairedComparison compare(const std::string& a, const std::string& b,
                         std::vector<std::pair<std::string, double>> differences,
                         const char* score) {
  PairedComparison c;
  c.a = a;
  c.b = b;
  c.differences = std::move(differences);
  std::vector<double> d;
  for (const auto& [task, diff] : c.differences) d.push_back(diff);
  const auto n = static_cast<int64_t>(d.size());
  c.mean = mean_of(d);
  c.sd = sd_of(d);
  c.ci = bootstrap_mean_ci(d);
  c.sign = sign_test(d);
  c.wilcoxon = wilcoxon_signed_rank(d);
  if (n == 0) {
    c.verdict = "no paired tasks yet: no task has finished episodes in both " + a + " and " + b;
    return c;
  }
  const std::string interval =
      fmt("%+.3f", c.mean) +
      (c.ci ? " [" + fmt("%+.3f", c.ci->lo) + ", " + fmt("%+.3f", c.ci->hi) + "]" : "");
  c.significant = c.wilcoxon.p < kAlpha && c.ci && (c.ci->lo > 0 || c.ci->hi < 0);
  if (c.significant) {
    c.verdict = b + (c.mean > 0 ? " better than " : " worse than ") + a + " on " + score + " by " +
                interval + ", p = " + p_text(c.wilcoxon.p) + " (Wilcoxon signed-rank, " +
                std::to_string(n) + " tasks; sign test p = " + p_text(c.sign.p) + ")";
    return c;
  }
  c.verdict = "no detectable difference between " + b + " and " + a + " on " + score + " with " +
              std::to_string(n) + " task" + (n == 1 ? "" : "s") + " (mean difference " + interval +
              ", Wilcoxon p = " + p_text(c.wilcoxon.p) + ")";
  c.effect = std::abs(c.mean) > kZeroDifference ? std::abs(c.mean) : kDefaultEffect;
  if (c.sd > kZeroDifference) {
    c.tasks_needed = tasks_needed(c.effect, c.sd);
    if (c.tasks_needed) {
      c.verdict += "; about " + std::to_string(*c.tasks_needed) +
                   " tasks would be needed for an effect of size " + fmt("%.3g", c.effect) + " (" +
                   fmt("%.2g", c.effect / c.sd) + " sd of the differences, alpha 0.05, power 0.8)";
    }
  } else {
    c.tasks_needed = std::max(unanimous_minimum(), n + 1);
    c.verdict += "; the differences do not vary, so no spread sizes a larger test: at least " +
                 std::to_string(*c.tasks_needed) +
                 " tasks would be needed for any effect to reach "
                 "p < 0.05";
  }
  return c;
}

Result<AbReport> build_ab_report(traj::TrajectoryReader& reader, const std::string& id,
                                 const std::vector<ArmRef>& arms) {
  AbReport report;
  report.id = id;
  std::vector<std::string> run_ids;
  for (const auto& a : arms) run_ids.push_back(a.run_id);
  PF_ASSIGN(report.mode, infer_mode(reader, run_ids));
  PF_ASSIGN(auto runs, reader.runs());
  std::map<std::string, bool> seen_task;
  for (const auto& ref : arms) {
    ArmReport arm;
    arm.ref = ref;
    for (const auto& r : runs) {
      if (r.id == ref.run_id) {
        arm.prompt_variant = r.prompt_variant;
        arm.model = r.model;
      }
    }
    PF_ASSIGN(auto episodes, read_episode_metrics(reader, ref.run_id, report.mode));
    arm.metrics = aggregate(episodes);
    std::map<std::string, std::pair<double, int>> sums;
    for (const auto& e : episodes) {
      if (e.status != traj::RunState::finished && e.status != traj::RunState::failed) continue;
      sums[e.task_id].first += e.score;
      ++sums[e.task_id].second;
      if (!seen_task[e.task_id]) {
        seen_task[e.task_id] = true;
        report.tasks.push_back(e.task_id);
      }
    }
    for (const auto& [task, s] : sums) arm.task_scores[task] = s.first / s.second;
    report.arms.push_back(std::move(arm));
  }
  for (size_t i = 1; i < report.arms.size(); ++i) {
    std::vector<std::pair<std::string, double>> diffs;
    for (const auto& task : report.tasks) {
      auto a = report.arms[0].task_scores.find(task);
      auto b = report.arms[i].task_scores.find(task);
      if (a == report.arms[0].task_scores.end() || b == report.arms[i].task_scores.end()) continue;
      diffs.emplace_back(task, b->second - a->second);
    }
    report.comparisons.push_back(compare(report.arms[0].ref.name, report.arms[i].ref.name,
                                         std::move(diffs), score_name(report.mode)));
  }
  return report;
}

std::string AbReport::table() const {
  std::string out;
  const char* score = score_name(mode);
  out +=
      "A/B experiment " + id + ": " + std::to_string(tasks.size()) + " tasks, " +
      (mode == traj::EvalMode::full
           ? std::string("full evaluation (score = best AS per episode)")
           : std::string("COMPILE-ONLY evaluation (no GPU: no AS exists; score = best share of "
                         "variants that compiled, matched and dry-ran; correct = all of them)")) +
      "\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-14s %-10s %-18s %8s %13s %8s %7s %10s %10s %12s\n", "arm",
                "prompt", "model", "episodes", score, "correct", "fast_1", "tokens/ep",
                "latency/ep", "turns->corr");
  out += buf;
  for (const auto& a : arms) {
    const auto& m = a.metrics;
    std::string fast = m.fast_1 ? fmt("%.3f", *m.fast_1) : "-";
    std::string turns = m.turns_to_first_correct ? fmt("%.1f", *m.turns_to_first_correct) : "-";
    std::snprintf(buf, sizeof buf,
                  "%-14s %-10s %-18s %8lld %13.3f %7.1f%% %7s %10.0f %9.2fs %12s\n",
                  a.ref.name.c_str(), a.prompt_variant.c_str(), a.model.substr(0, 18).c_str(),
                  static_cast<long long>(m.episodes), m.mean_score, 100 * m.correct_rate,
                  fast.c_str(), m.tokens_per_episode, m.latency_s_per_episode, turns.c_str());
    out += buf;
  }
  for (const auto& c : comparisons) {
    out += "\npaired per-task differences (" + c.b + " - " + c.a + ") in " + score + ", " +
           std::to_string(c.differences.size()) + " tasks:\n";
    for (const auto& [task, d] : c.differences) out += "  " + task + "  " + fmt("%+.3f", d) + "\n";
    out += "  mean " + fmt("%+.3f", c.mean) +
           (c.ci ? " (95% bootstrap CI [" + fmt("%+.3f", c.ci->lo) + ", " + fmt("%+.3f", c.ci->hi) +
                       "])"
                 : "") +
           "; sign test " + std::to_string(c.sign.positive) + "+ " +
           std::to_string(c.sign.negative) + "- " + std::to_string(c.sign.zeros) +
           "= p = " + p_text(c.sign.p) + "; Wilcoxon W+ = " + fmt("%g", c.wilcoxon.w_plus) +
           " W- = " + fmt("%g", c.wilcoxon.w_minus) + " p = " + p_text(c.wilcoxon.p) +
           (c.wilcoxon.n == 0  ? " (no non-zero difference)"
            : c.wilcoxon.exact ? " (exact)"
                               : " (normal approx.)") +
           "\n";
    out += "verdict: " + c.verdict + "\n";
  }
  return out;
}

nlohmann::json AbReport::to_json() const {
  nlohmann::json j = {{"id", id},
                      {"mode", traj::to_string(mode)},
                      {"score", score_name(mode)},
                      {"tasks", tasks},
                      {"arms", nlohmann::json::array()},
                      {"comparisons", nlohmann::json::array()}};
  auto opt = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json();
  };
  for (const auto& a : arms) {
    const auto& m = a.metrics;
    j["arms"].push_back({{"name", a.ref.name},
                         {"run_id", a.ref.run_id},
                         {"prompt_variant", a.prompt_variant},
                         {"model", a.model},
                         {"episodes", m.episodes},
                         {"mean_score", m.mean_score},
                         {"correct_rate", m.correct_rate},
                         {"fast_1", opt(m.fast_1)},
                         {"tokens_per_episode", m.tokens_per_episode},
                         {"llm_latency_s_per_episode", m.latency_s_per_episode},
                         {"wall_s_per_episode", m.wall_s_per_episode},
                         {"turns_to_first_correct", opt(m.turns_to_first_correct)},
                         {"reached_correct", m.reached_correct},
                         {"task_scores", a.task_scores}});
  }
  for (const auto& c : comparisons) {
    nlohmann::json diffs = nlohmann::json::object();
    for (const auto& [task, d] : c.differences) diffs[task] = d;
    j["comparisons"].push_back(
        {{"a", c.a},
         {"b", c.b},
         {"tasks", c.differences.size()},
         {"differences", diffs},
         {"mean", c.mean},
         {"sd", c.sd},
         {"ci95", c.ci ? nlohmann::json{c.ci->lo, c.ci->hi} : nlohmann::json()},
         {"sign_test",
          {{"positive", c.sign.positive},
           {"negative", c.sign.negative},
           {"zeros", c.sign.zeros},
           {"p", c.sign.p}}},
         {"wilcoxon",
          {{"n", c.wilcoxon.n},
           {"zeros", c.wilcoxon.zeros},
           {"w_plus", c.wilcoxon.w_plus},
           {"w_minus", c.wilcoxon.w_minus},
           {"exact", c.wilcoxon.exact},
           {"z", c.wilcoxon.z},
           {"p", c.wilcoxon.p}}},
         {"significant", c.significant},
         {"effect", c.effect},
         {"tasks_needed", c.tasks_needed ? nlohmann::json(*c.tasks_needed) : nlohmann::json()},
         {"verdict", c.verdict}});
  }
  return j;
}

std::string AbReport::svg() const {
  // One forest plot per comparison: a dot per task (B - A, tasks are
  // categories, not a series) and the mean with its bootstrap CI.
  std::vector<std::pair<std::string, int>> parts;
  for (const auto& c : comparisons) {
    std::vector<traj::RowDatum> rows;
    for (const auto& [task, d] : c.differences) rows.push_back({task, d, {}, {}, false});
    traj::RowDatum mean{"mean (95% CI)", c.mean, {}, {}, true};
    if (c.ci) mean.lo = c.ci->lo, mean.hi = c.ci->hi;
    rows.push_back(mean);
    traj::RowChartOptions o;
    o.title =
        "A/B " + id + ": " + c.b + " - " + c.a + ", mean best " + score_name(mode) + " per task";
    o.x_label = std::string("paired difference in ") + score_name(mode) + " (" + c.b + " - " + c.a +
                "; > 0: " + c.b + " better)";
    o.style = traj::RowChartOptions::Style::dots;
    parts.emplace_back(traj::row_chart_svg(rows, o), traj::row_chart_height(rows.size()));
  }
  if (parts.empty()) {
    traj::RowChartOptions o;
    o.title = "A/B " + id + ": fewer than two arms, nothing to compare";
    o.style = traj::RowChartOptions::Style::dots;
    return traj::row_chart_svg({}, o);
  }
  return traj::stack_svg(parts, traj::RowChartOptions{}.width);
}

}  // namespace pf::experiments
