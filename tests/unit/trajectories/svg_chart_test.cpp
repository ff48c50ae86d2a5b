// The charts people read (issue 19): round tick labels, category names on
// category axes, labelled reference lines, panels per unit.
#include "trajectories/svg_chart.h"

#include <gtest/gtest.h>

#include <regex>

#include "trajectories/stats_report.h"
#include "trajectories/svg_axis.h"
#include "trajectories/svg_rows.h"

namespace pf::traj {
namespace {

std::vector<std::string> texts_of_class(const std::string& svg, const std::string& cls) {
  std::vector<std::string> out;
  std::regex re("<text class=\"" + cls + "\"[^>]*>([^<]*)");
  for (std::sregex_iterator it(svg.begin(), svg.end(), re), end; it != end; ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

TEST(NiceTicks, StepsAreOneTwoOrFiveTimesAPowerOfTenAndCoverTheRange) {
  // The values issue 19 saw as labels: 1.68752 and 0.337504.
  auto t = nice_ticks(0.337504, 1.68752);
  EXPECT_DOUBLE_EQ(t.step, 0.2);
  EXPECT_LE(t.lo, 0.337504);
  EXPECT_GE(t.hi, 1.68752);
  EXPECT_EQ(tick_text(t.values.front(), t.decimals), "0.2");
  EXPECT_EQ(tick_text(t.values.back(), t.decimals), "1.8");
  for (double v : t.values) {
    std::string s = tick_text(v, t.decimals);
    EXPECT_LE(s.size(), 3u) << s;
  }
  auto big = nice_ticks(0, 1234);
  EXPECT_DOUBLE_EQ(big.step, 200);  // 1234 / 5 = 246.8 -> 200
  EXPECT_DOUBLE_EQ(big.hi, 1400);
  EXPECT_EQ(big.decimals, 0);
  auto flat = nice_ticks(0.5, 0.5);
  EXPECT_LT(flat.lo, 0.5);
  EXPECT_GT(flat.hi, 0.5);
  EXPECT_EQ(tick_text(-0.0001, 2), "0.00");
}

TEST(LineChart, LinearAxisLabelsAreRoundAndMarkersAreLabelled) {
  ChartOptions o;
  o.log_y = false;
  o.integer_x = true;
  o.markers.push_back({2, "threshold <here>"});
  std::string svg = line_chart_svg({{"a & b", {{0, 0.337504}, {1, 1.68752}, {3, 1.0}}}}, o);
  auto ys = texts_of_class(svg, "y-tick");
  ASSERT_FALSE(ys.empty());
  for (const auto& y : ys) EXPECT_TRUE(std::regex_match(y, std::regex(R"(-?\d+(\.\d)?)"))) << y;
  EXPECT_EQ(texts_of_class(svg, "x-tick"), (std::vector<std::string>{"0", "1", "2", "3"}));
  EXPECT_EQ(texts_of_class(svg, "marker"), std::vector<std::string>{"threshold &lt;here&gt;"});
  EXPECT_EQ(texts_of_class(svg, "legend"), std::vector<std::string>{"a &amp; b"});
}

TEST(EsCurveChart, EveryToleranceLevelIsATickAndTheCorrectnessLevelIsMarked) {
  ChartSeries s{"run", {}};
  for (int t = -10; t <= 4; ++t) s.points.emplace_back(t, 0.05 + 0.1 * (t + 10));
  std::string svg = es_curve_chart({s}, "ES_t");
  auto xs = texts_of_class(svg, "x-tick");
  ASSERT_EQ(xs.size(), 15u);
  EXPECT_EQ(xs.front(), "-10");
  EXPECT_EQ(xs.back(), "4");
  auto markers = texts_of_class(svg, "marker");
  ASSERT_EQ(markers.size(), 1u);
  EXPECT_NE(markers[0].find("t = -5"), std::string::npos);
  // Log axis: decades only, printed plainly.
  for (const auto& y : texts_of_class(svg, "y-tick")) {
    EXPECT_TRUE(y == "0.01" || y == "0.1" || y == "1" || y == "10") << y;
  }
}

TEST(RowChart, NamesEveryCategoryAndDrawsTheIntervalOfTheSummaryRow) {
  std::vector<RowDatum> rows = {{"add-softmax-dropout-a73f2b", 0.12, {}, {}, false},
                                {"neg-cat-mul-add-6a5c9e", -0.05, {}, {}, false},
                                {"mean (95% CI)", 0.035, -0.02, 0.09, true}};
  RowChartOptions o;
  o.style = RowChartOptions::Style::dots;
  std::string svg = row_chart_svg(rows, o);
  EXPECT_EQ(texts_of_class(svg, "row-label"),
            (std::vector<std::string>{"add-softmax-dropout-a73f2b", "neg-cat-mul-add-6a5c9e",
                                      "mean (95% CI)"}));
  EXPECT_EQ(svg.find("<polyline"), std::string::npos) << "categories are not a series";
  auto values = texts_of_class(svg, "row-value");
  ASSERT_EQ(values.size(), 3u);
  EXPECT_NE(values[2].find('['), std::string::npos) << values[2];
  EXPECT_NE(svg.find("<path"), std::string::npos) << "the summary row's diamond";
  EXPECT_EQ(row_chart_height(3), row_chart_height(1) + 2 * 22);
}

TEST(RowChart, CountsGetWholeNumberTicks) {
  std::string svg =
      row_chart_svg({{"compile_fail", 3, {}, {}, false}, {"pass_miss", 1, {}, {}, false}}, {});
  for (const auto& x : texts_of_class(svg, "x-tick")) {
    EXPECT_TRUE(std::regex_match(x, std::regex(R"(\d+)"))) << x;
  }
  EXPECT_EQ(texts_of_class(svg, "row-value"), (std::vector<std::string>{"3", "1"}));
}

TEST(StackSvg, PlacesEachPartBelowThePreviousOne) {
  ChartOptions o;
  o.height = 100;
  std::string a = line_chart_svg({}, o), b = line_chart_svg({}, o);
  std::string svg = stack_svg({{a, 100}, {b, 100}}, o.width);
  EXPECT_NE(svg.find("height=\"200\""), std::string::npos);
  EXPECT_NE(svg.find("<svg x=\"0\" y=\"0\""), std::string::npos);
  EXPECT_NE(svg.find("<svg x=\"0\" y=\"100\""), std::string::npos);
}

}  // namespace
}  // namespace pf::traj
