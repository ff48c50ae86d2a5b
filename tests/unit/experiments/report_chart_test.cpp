// The A/B and improve charts (issue 19): A/B as paired per-task differences
// with the CI of their mean, named tasks; improve rounds with one panel per unit.
#include <gtest/gtest.h>

#include "experiments/ab_report.h"
#include "experiments/improve_loop.h"

namespace pf::experiments {
namespace {

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(AbChart, IsAForestPlotOfPairedDifferencesWithTaskNamesAndTheCi) {
  AbReport r;
  r.id = "ab1";
  r.tasks = {"task-alpha", "task-beta"};
  PairedComparison c;
  c.a = "base";
  c.b = "fewshot";
  c.differences = {{"task-alpha", 0.25}, {"task-beta", -0.1}};
  c.mean = 0.075;
  c.ci = Interval{-0.1, 0.25};
  r.comparisons.push_back(c);
  std::string svg = r.svg();
  EXPECT_NE(svg.find(">task-alpha<"), std::string::npos);
  EXPECT_NE(svg.find(">task-beta<"), std::string::npos);
  EXPECT_NE(svg.find("mean (95% CI)"), std::string::npos);
  EXPECT_NE(svg.find("[-0.10, 0.25]"), std::string::npos) << svg;
  EXPECT_NE(svg.find("fewshot - base"), std::string::npos);
  EXPECT_EQ(svg.find("<polyline"), std::string::npos) << "no line between categories";
}

TEST(ImproveChart, ScoreAndCorrectRateHaveTheirOwnAxes) {
  ImproveReport r;
  r.id = "loop";
  r.mode = traj::EvalMode::full;
  for (int k = 0; k < 3; ++k) {
    RoundRow row;
    row.round = k;
    ArmMetrics m;
    m.mean_score = 0.4 + 0.1 * k;
    m.correct_rate = 0.5 + 0.2 * k;
    row.eval = m;
    row.train = m;
    r.rounds.push_back(row);
  }
  std::string svg = r.svg();
  EXPECT_EQ(count(svg, "<svg"), 3u) << "an outer SVG with two panels";
  EXPECT_EQ(svg.find("log scale"), std::string::npos) << "linear axes";
  EXPECT_NE(svg.find("rotate(-90)\" text-anchor=\"middle\">AS<"), std::string::npos);
  EXPECT_NE(svg.find("rotate(-90)\" text-anchor=\"middle\">correct rate<"), std::string::npos);
  EXPECT_EQ(svg.find("held-out correct rate"), std::string::npos)
      << "the correct rate is not a series on the AS axis";
}

}  // namespace
}  // namespace pf::experiments
