#include <gtest/gtest.h>

#include "experiments/ab_report.h"
#include "experiments/ab_spec.h"
#include "experiments/improve_spec.h"

namespace pf::experiments {
namespace {

const std::string kArms = R"(
[[arms]]
name = "A"
set = { "prompts.variant" = "default" }
[[arms]]
name = "B"
[arms.set.prompts]
variant = "concise"
)";

std::string ab_error(const std::string& text) {
  auto spec = parse_ab_spec(text, "exp.toml");
  return spec.ok() ? "" : spec.error().message;
}

TEST(AbSpec, ParsesArmsAndFlattensTheirSets) {
  auto spec = parse_ab_spec(
      "base_config = \"base.toml\"\nsamples_per_task = 3\ntasks = [\"t1\"]\n"
      "[set]\n\"run.concurrency\" = 2\n" +
          kArms,
      "exp.toml");
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  EXPECT_EQ(spec->samples_per_task, 3);
  EXPECT_EQ(spec->tasks, std::vector<std::string>{"t1"});
  EXPECT_EQ(spec->common_sets, std::vector<std::string>{"run.concurrency=2"});
  ASSERT_EQ(spec->arms.size(), 2u);
  EXPECT_EQ(spec->arms[0].sets, std::vector<std::string>{"prompts.variant='default'"});
  EXPECT_EQ(spec->arms[1].sets, std::vector<std::string>{"prompts.variant='concise'"});
}

TEST(AbSpec, ClearErrors) {
  EXPECT_EQ(ab_error(kArms),
            "exp.toml: base_config (the configuration the arms start from) is missing");
  EXPECT_EQ(ab_error("base_config = \"b.toml\"\n[[arms]]\nname = \"A\"\n"),
            "exp.toml: an experiment needs two or more [[arms]] (name and set)");
  EXPECT_NE(ab_error("base_config = \"b.toml\"\n[[arms]]\nname = \"A\"\n[[arms]]\nname = \"B\"\n"
                     "set = { \"run.seed\" = 3 }\n")
                .find("arms may change only [endpoint], [agent] and [prompts] keys"),
            std::string::npos);
  EXPECT_NE(ab_error("base_config = \"b.toml\"\n[[arms]]\nname = \"A\"\n[[arms]]\nname = \"A\"\n")
                .find("arm name 'A' repeats"),
            std::string::npos);
  EXPECT_NE(ab_error("base_config = \"b.toml\"\nsample = 2\n" + kArms).find("unknown key 'sample'"),
            std::string::npos);
  EXPECT_NE(ab_error("base_config = \"b.toml\"\n[[arms]\n").find("exp.toml:2:"), std::string::npos);
}

TEST(ImproveSpec, DefaultsAndHeldOutChecks) {
  auto spec = parse_improve_spec(
      "base_config = \"b.toml\"\ntrain_tasks = [\"a\"]\n"
      "eval_tasks = [\"b\"]\n[selection]\nmode = \"top_k\"\ntop_k = 3\n"
      "[training]\ncommand = \"train {dataset}\"\n",
      "loop.toml");
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  EXPECT_EQ(spec->rounds, 3);
  EXPECT_EQ(spec->selection, SelectionMode::top_k);
  EXPECT_EQ(spec->top_k, 3);
  EXPECT_EQ(spec->training_command, "train {dataset}");
  auto overlap = parse_improve_spec(
      "base_config = \"b.toml\"\ntrain_tasks = [\"a\", \"b\"]\neval_tasks = [\"b\"]\n",
      "loop.toml");
  ASSERT_FALSE(overlap.ok());
  EXPECT_NE(overlap.error().message.find("task b is in both train_tasks and eval_tasks"),
            std::string::npos);
  auto no_eval = parse_improve_spec("base_config = \"b.toml\"\ntrain_tasks = [\"a\"]\n", "l.toml");
  ASSERT_FALSE(no_eval.ok());
  auto bad_mode = parse_improve_spec(
      "base_config = \"b.toml\"\ntrain_tasks = [\"a\"]\n"
      "eval_tasks = [\"b\"]\n[selection]\nmode = \"all\"\n",
      "l.toml");
  ASSERT_FALSE(bad_mode.ok());
  EXPECT_NE(bad_mode.error().message.find("best_per_task"), std::string::npos);
}

TEST(Verdict, SignificantDifferenceNamesDirectionIntervalAndP) {
  std::vector<std::pair<std::string, double>> d;
  for (int i = 0; i < 8; ++i) d.emplace_back("t" + std::to_string(i), 0.1 + 0.01 * i);
  auto c = compare("A", "B", d, "AS");
  EXPECT_TRUE(c.significant);
  EXPECT_NEAR(c.wilcoxon.p, 2.0 / 256, 1e-12);
  EXPECT_EQ(c.verdict.rfind("B better than A on AS by +0.135 [", 0), 0u) << c.verdict;
  EXPECT_NE(c.verdict.find("p = 0.008 (Wilcoxon signed-rank, 8 tasks"), std::string::npos)
      << c.verdict;
  for (auto& [task, diff] : d) diff = -diff;
  EXPECT_EQ(compare("A", "B", d, "AS").verdict.rfind("B worse than A on AS by -0.135", 0), 0u);
}

TEST(Verdict, NoDifferenceGivesASampleSize) {
  // Mean 0.02, sd 0.1 (alternating around it): not significant with 6 tasks.
  std::vector<std::pair<std::string, double>> d = {{"a", 0.12},  {"b", -0.08}, {"c", 0.12},
                                                   {"d", -0.08}, {"e", 0.12},  {"f", -0.08}};
  auto c = compare("A", "B", d, "AS");
  EXPECT_FALSE(c.significant);
  ASSERT_TRUE(c.tasks_needed.has_value());
  EXPECT_EQ(*c.tasks_needed, *tasks_needed(0.02, c.sd));
  EXPECT_EQ(c.verdict.rfind("no detectable difference between B and A on AS with 6 tasks", 0), 0u)
      << c.verdict;
  EXPECT_NE(c.verdict.find("about " + std::to_string(*c.tasks_needed) +
                           " tasks would be needed for an effect of size 0.02"),
            std::string::npos)
      << c.verdict;
  auto zeros = compare("A", "B", {{"a", 0}, {"b", 0}}, "compile share");
  EXPECT_NE(zeros.verdict.find("at least 6 tasks would be needed"), std::string::npos)
      << zeros.verdict;
  EXPECT_EQ(compare("A", "B", {}, "AS").verdict.rfind("no paired tasks yet", 0), 0u);
}

}  // namespace
}  // namespace pf::experiments
