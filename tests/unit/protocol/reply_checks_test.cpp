// The orchestrator's checks of a worker's `evaluate` reply (reply_checks.h),
// written as a compromised worker would lie: each case starts from a reply
// that passes and changes one thing.
#include "evaluator/protocol/reply_checks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "evaluator/protocol/result_score.h"
#include "tests/unit/passes/pass_test_util.h"

namespace pf::protocol {
namespace {

using nlohmann::json;

// Two visible variants and a hidden one.
Task three_variant_task() {
  auto task = task_from_json(passes::test::relu_task_json(), "test");
  EXPECT_TRUE(task.ok());
  Task t = std::move(task).value();
  TaskVariant base = t.variants.front();
  t.variants.clear();
  for (const char* name : {"a", "b", "h"}) {
    TaskVariant v = base;
    v.name = name;
    v.hidden = std::string(name) == "h";
    t.variants.push_back(v);
  }
  return t;
}

EvalRequest request(EvalMode mode) {
  EvalRequest r;
  r.task = three_variant_task();
  r.mode = mode;
  return r;
}

// A full reply as an honest worker scores it.
json honest_full(const EvalRequest& req) {
  json r = {{field::kMode, "full"}, {field::kVariants, json::array()}};
  for (const auto& tv : req.task.variants) {
    r[field::kVariants].push_back({{"name", tv.name},
                                   {"hidden", tv.hidden},
                                   {"evaluated", true},
                                   {"correct", true},
                                   {"first_passing_level", -10},
                                   {"speedup", 1.5},
                                   {"unstable", false},
                                   {"max_abs_diff", 0.0},
                                   {"max_rel_diff", 0.0},
                                   {"timing",
                                    {{"candidate", {{"device_median_ms", 0.01}}},
                                     {"eager", {{"device_median_ms", 0.015}}}}}});
  }
  score_result(r, ProtocolOptions{});
  stamp_reply(r);
  return r;
}

Status check(const EvalRequest& req, json body) {
  auto parsed = parse_eval_reply(std::move(body));
  if (!parsed.ok()) return parsed.error();
  return check_reply(req, *parsed, ProtocolOptions{});
}

std::string why(const Status& st) {
  return st.ok() ? "(passed)" : st.error().message;
}

TEST(ReplyChecks, AnHonestReplyPasses) {
  const auto req = request(EvalMode::full);
  Status st = check(req, honest_full(req));
  EXPECT_TRUE(st.ok()) << why(st);
}

TEST(ReplyChecks, TheIssueFifteenLieIsRefused) {
  // `mode: "full", as: 99, speedup: 1000` answering a compile-only request.
  const auto req = request(EvalMode::compile_only);
  json lie = {{field::kMode, "full"},
              {"as", 99},
              {field::kVariants, {{{"name", "a"}, {"evaluated", true}, {"speedup", 1000}}}}};
  stamp_reply(lie);
  EXPECT_EQ(why(check(req, lie)), "mode \"full\" answers a \"compile_only\" request");
  // The same numbers in a full reply: the speedup is not physical.
  lie[field::kMode] = "full";
  EXPECT_NE(why(check(request(EvalMode::full), lie)).find("speedup = 1000"), std::string::npos);
}

TEST(ReplyChecks, AnInflatedAsIsCaughtByTheOrchestratorsOwnScoring) {
  const auto req = request(EvalMode::full);
  json r = honest_full(req);
  r["as"] = r["as"].get<double>() * 1.05;
  EXPECT_NE(why(check(req, r)).find("the worker's as"), std::string::npos) << why(check(req, r));
  json curve = honest_full(req);
  curve["es_curve"][3]["es"] = 7.0;
  EXPECT_NE(why(check(req, curve)).find("es_curve at t = -7"), std::string::npos)
      << why(check(req, curve));
  json rate = honest_full(req);
  rate["correct_rate"] = 1.5;
  EXPECT_NE(why(check(req, rate)).find("correct_rate = 1.5 is outside [0, 1]"), std::string::npos);
}

TEST(ReplyChecks, NumbersOutsidePhysicalLimitsAreRefused) {
  const auto req = request(EvalMode::full);
  auto with = [&](const char* key, json value) {
    json r = honest_full(req);
    r[field::kVariants][0][key] = value;
    return why(check(req, r));
  };
  EXPECT_NE(with("speedup", -2.0).find("not a positive finite number"), std::string::npos);
  EXPECT_NE(with("speedup", 0.0).find("not a positive finite number"), std::string::npos);
  EXPECT_NE(with("speedup", 1e6).find("outside"), std::string::npos);
  // A do-nothing candidate can be that fast: the worker's roofline check
  // flags it (excluded from successes), and then the reply is consistent.
  json flagged = honest_full(req);
  flagged[field::kVariants][0]["speedup"] = 1e6;
  flagged[field::kVariants][0]["flags"] = {
      {{"flag", "implausible_speedup"}, {"evidence", "below the roofline"}}};
  score_result(flagged, ProtocolOptions{});
  EXPECT_TRUE(check(req, flagged).ok()) << why(check(req, flagged));
  EXPECT_NE(with("max_abs_diff", -1.0).find("max_abs_diff"), std::string::npos);
  EXPECT_NE(with("first_passing_level", 40).find("tolerance scale"), std::string::npos);
  EXPECT_NE(with("speedup", "fast").find("must be a number"), std::string::npos);
  json timing = honest_full(req);
  timing[field::kVariants][1]["timing"]["eager"]["device_median_ms"] = -0.5;
  EXPECT_NE(why(check(req, timing)).find("timing in ms"), std::string::npos);

  // NaN cannot travel in JSON text, but a typed reply can carry it.
  auto parsed = parse_eval_reply(honest_full(req));
  ASSERT_TRUE(parsed.ok());
  parsed->variants[0].speedup = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(why(check_reply(req, *parsed, ProtocolOptions{})).find("not a positive finite"),
            std::string::npos);
  parsed->variants[0].speedup = 1.5;
  parsed->as = std::numeric_limits<double>::infinity();
  EXPECT_NE(why(check_reply(req, *parsed, ProtocolOptions{})).find("AS = inf"), std::string::npos);
}

TEST(ReplyChecks, VariantsMustBeTheTasksAndTheRequested) {
  auto req = request(EvalMode::full);
  json foreign = honest_full(req);
  foreign[field::kVariants][0]["name"] = "zz";
  EXPECT_EQ(why(check(req, foreign)), "variant 'zz' is not a variant of the task");
  json twice = honest_full(req);
  twice[field::kVariants][1]["name"] = "a";
  EXPECT_EQ(why(check(req, twice)), "variant 'a' is listed twice");
  json unhidden = honest_full(req);
  unhidden[field::kVariants][2]["hidden"] = false;
  EXPECT_EQ(why(check(req, unhidden)), "variant 'h': hidden flag differs from the task's");
  req.variants = std::vector<std::string>{"b"};
  EXPECT_EQ(why(check(req, honest_full(req))), "variant 'a' was evaluated but not requested");
}

TEST(ReplyChecks, ACompileOnlyReplyClaimsNoScore) {
  const auto req = request(EvalMode::compile_only);
  json r = {{field::kMode, "compile_only"},
            {"as", nullptr},
            {field::kVariants, {{{"name", "a"}, {"hidden", false}}}}};
  stamp_reply(r);
  EXPECT_TRUE(check(req, r).ok()) << why(check(req, r));
  json scored = r;
  scored["as"] = 1.2;
  EXPECT_EQ(why(check(req, scored)), "a compile-only reply claims a score");
  json fast = r;
  fast[field::kVariants][0]["speedup"] = 2.0;
  EXPECT_EQ(why(check(req, fast)), "variant 'a': a compile-only reply claims a speedup");
}

TEST(ReplyChecks, AReplyOfAnotherProtocolVersionDoesNotParse) {
  const auto req = request(EvalMode::full);
  json r = honest_full(req);
  r.erase(field::kProtocolVersion);
  EXPECT_NE(why(check(req, r)).find("no \"protocol_version\""), std::string::npos);
  r[field::kProtocolVersion] = kEvalProtocolVersion + 1;
  EXPECT_NE(why(check(req, r)).find("different builds"), std::string::npos);
}

}  // namespace
}  // namespace pf::protocol
