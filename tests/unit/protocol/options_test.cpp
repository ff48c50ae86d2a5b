// The protocol's options: defaults agree with the [evaluator] configuration
// keys of the same names, the agent's "options" object (the whole
// [evaluator] section) is accepted, and bad values are named.
#include <gtest/gtest.h>

#include "evaluator/protocol/gpu_variant.h"
#include "evaluator/protocol/protocol_options.h"

namespace pf::protocol {
namespace test {
nlohmann::json default_evaluator_section();
}
namespace {

using nlohmann::json;

TEST(ProtocolOptions, DefaultsAgreeWithTheEvaluatorSection) {
  json section = test::default_evaluator_section();
  ProtocolOptions defaults;
  json mine = options_to_json(defaults);
  for (const char* key : {"warmup", "trials", "timing_precision", "min_trials",
                          "baseline_min_trials", "baseline_pool", "timing_confidence",
                          "l2_flush", "graph_replay", "timing_clock", "iqr_threshold", "remeasure", "b", "p",
                          "scoring_mode", "tolerance_min", "tolerance_max", "std_zero_rule"}) {
    ASSERT_TRUE(section.contains(key)) << key;
    EXPECT_EQ(section[key], mine[key]) << key;
  }
  auto parsed = options_from_json(section);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(options_to_json(*parsed), mine);
}

TEST(ProtocolOptions, ReadsKnownKeysAndRoundTrips) {
  json in = {{"warmup", 3},
             {"trials", 7},
             {"timing_precision", 0.03},
             {"min_trials", 11},
             {"baseline_min_trials", 6},
             {"baseline_pool", false},
             {"timing_confidence", 0.9},
             {"l2_flush", false},
             {"graph_replay", false},
             {"timing_clock", "device"},
             {"b", 0.2},
             {"p", 1.0},
             {"scoring_mode", "graphnet"},
             {"tolerance_min", -6},
             {"tolerance_max", 2},
             {"seed", 42},
             {"recheck_cycle", 3},
             {"arch", "sm_80"},
             {"timing_samples", true},
             {"unknown_key", "ignored"}};
  auto o = options_from_json(in);
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->warmup, 3);
  EXPECT_EQ(o->trials, 7);
  EXPECT_DOUBLE_EQ(o->timing_precision, 0.03);
  EXPECT_EQ(o->min_trials, 11);
  EXPECT_EQ(o->baseline_min_trials, 6);
  EXPECT_FALSE(o->baseline_pool);
  EXPECT_DOUBLE_EQ(o->timing_confidence, 0.9);
  EXPECT_FALSE(o->l2_flush);
  EXPECT_FALSE(o->graph_replay);
  EXPECT_EQ(o->timing_clock, TimingClock::device);
  EXPECT_DOUBLE_EQ(o->scoring.b, 0.2);
  EXPECT_EQ(o->scoring.mode, ScoringMode::graphnet);
  EXPECT_EQ(o->seed, 42u);
  EXPECT_EQ(o->arch, "sm_80");
  EXPECT_TRUE(o->repoison_every_trial);
  auto again = options_from_json(options_to_json(*o));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(options_to_json(*again), options_to_json(*o));
}

TEST(ProtocolOptions, NamesTheBadKey) {
  struct Case {
    json options;
    std::string message;
  };
  const Case cases[] = {
      {{{"trials", 0}}, "options.trials must be an integer in [1, 1000000]"},
      {{{"trials", "many"}}, "options.trials must be an integer"},
      {{{"scoring_mode", "best"}}, "options.scoring_mode must be strict, passnet or graphnet"},
      {{{"tolerance_min", 2}, {"tolerance_max", 1}}, "options.tolerance_max must be at least"},
      {{{"l2_flush", 1}}, "options.l2_flush must be true or false"},
      {{{"timing_clock", "wall"}}, "options.timing_clock must be device or end_to_end"},
      {{{"recheck_cycle", 1}}, "options.recheck_cycle must be an integer in [2, 1000]"},
      {{{"timing_precision", -0.1}}, "options.timing_precision must be a number in [0, 1]"},
      {{{"min_trials", 0}}, "options.min_trials must be an integer in [1, 1000000]"},
      {{{"timing_confidence", 1}}, "options.timing_confidence must be a number in [0.5, 0.999]"},
      {json::array(), "options must be an object"},
  };
  for (const auto& c : cases) {
    auto o = options_from_json(c.options);
    ASSERT_FALSE(o.ok()) << c.options.dump();
    EXPECT_NE(o.error().message.find(c.message), std::string::npos) << o.error().message;
  }
  EXPECT_TRUE(options_from_json(nullptr).ok());
  EXPECT_TRUE(options_from_json({{"trials", nullptr}}).ok());
}

TEST(ProtocolOptions, TimingOptionsAlternateTheCheckedInputSet) {
  ProtocolOptions o;
  o.warmup = 7;
  o.trials = 40;
  o.l2_flush = false;
  o.graph_replay = false;
  o.iqr_threshold = 0.3;
  o.remeasure = 2;
  o.recheck_cycle = 4;
  o.timing_precision = 0.02;
  o.min_trials = 12;
  o.timing_confidence = 0.9;
  gpu::TimingOptions t = timing_options(o);
  EXPECT_EQ(t.warmup, 7);
  EXPECT_EQ(t.trials, 40);
  EXPECT_DOUBLE_EQ(t.precision, 0.02);
  EXPECT_EQ(t.min_trials, 12);
  EXPECT_EQ(t.min_trials_b, 10);
  EXPECT_DOUBLE_EQ(t.confidence, 0.9);
  EXPECT_FALSE(t.flush_l2);
  EXPECT_FALSE(t.graph_replay);
  EXPECT_DOUBLE_EQ(t.max_iqr_ratio, 0.3);
  EXPECT_EQ(t.remeasures, 2);
  // Trial t runs plan t % 2: an odd period alternates the plan that is checked.
  EXPECT_EQ(t.check_every % 2, 1);
  EXPECT_EQ(t.check_every, 9);
  // The clock speedups come from is the one stability and precision judge.
  EXPECT_EQ(t.stability, gpu::StabilityMetric::end_to_end);
  o.timing_clock = TimingClock::device;
  EXPECT_EQ(timing_options(o).stability, gpu::StabilityMetric::device);
}

// An adaptive run that stops at its minimum must still have re-checked the
// candidate on both input sets' plans twice (trial t runs plan t % 2, checks
// end the rounds): however small min_trials and whatever recheck_cycle is
// asked for, a candidate that is wrong only on one set's plan, or only after
// a check rotated its inputs' contents, meets a check.
TEST(ProtocolOptions, AdaptiveMinimumChecksBothInputSets) {
  for (int cycle = 2; cycle <= 30; ++cycle) {
    for (int min_trials : {1, 5, 20, 47}) {
      ProtocolOptions o;
      o.recheck_cycle = cycle;
      o.min_trials = min_trials;
      o.trials = 1000;
      gpu::TimingOptions t = timing_options(o);
      const int minimum = gpu::minimum_trials(t, 2);
      EXPECT_GE(minimum, min_trials);
      EXPECT_EQ(minimum % gpu::round_trials(t), 0);
      int checked[2] = {0, 0};
      for (int trial = 0; trial < minimum; ++trial) {
        if ((trial + 1) % gpu::round_trials(t) == 0) ++checked[trial % 2];
      }
      // Twice each: the second check of a plan follows the rotation of its
      // inputs' contents that the first one made.
      EXPECT_GE(checked[0], 2) << "cycle " << cycle << ", min " << min_trials;
      EXPECT_GE(checked[1], 2) << "cycle " << cycle << ", min " << min_trials;
    }
  }
  ProtocolOptions defaults;
  EXPECT_EQ(gpu::minimum_trials(timing_options(defaults), 2), 20);
}

// No seed means a fresh one per evaluation (evaluate_full draws it and
// records it in the result's options): unset, and null in JSON.
TEST(ProtocolOptions, SeedIsUnsetUnlessGivenAndRepoisoningCanBeSwitchedOff) {
  ProtocolOptions defaults;
  EXPECT_FALSE(defaults.seed.has_value());
  EXPECT_TRUE(options_to_json(defaults)["seed"].is_null());
  auto from_null = options_from_json(json{{"seed", nullptr}});
  ASSERT_TRUE(from_null.ok()) << from_null.error().message;
  EXPECT_FALSE(from_null->seed.has_value());
  auto given = options_from_json(json{{"seed", 0}, {"repoison_every_trial", false}});
  ASSERT_TRUE(given.ok()) << given.error().message;
  EXPECT_EQ(given->seed, 0u);
  EXPECT_FALSE(given->repoison_every_trial);
  EXPECT_FALSE(options_from_json(json{{"seed", "7"}}).ok());
}

}  // namespace
}  // namespace pf::protocol
