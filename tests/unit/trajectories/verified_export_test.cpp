// The verified rule of issue 16 on a store mixing correct, incorrect but
// AS > 0.1, hidden-wrong, flagged, unstable, compile-only, unsubmitted and
// unfinished episodes: each rule, each loosening, DPO's chosen side, the
// manifest, --split and --dedupe.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "common/fs.h"
#include "common/sha256.h"
#include "mixed_store.h"
#include "store_fixture.h"
#include "trajectories/export_manifest.h"
#include "trajectories/exporter.h"
#include "trajectories/result_summary.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/verification.h"

namespace pf::traj {
namespace {

using testing::mixed_episode;

class VerifiedExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = TrajectoryStore::open(dir_.path() / "run", TrajectoryStore::OpenMode::create);
    ASSERT_TRUE(s.ok()) << s.error().message;
    testing::write_mixed_store(**s);
    ASSERT_TRUE(write_file_atomic(levels_path(), testing::mixed_levels_json()).ok());
  }

  std::filesystem::path levels_path() const { return dir_.path() / "levels.json"; }
  std::filesystem::path out() const { return dir_.path() / "out" / "data.jsonl"; }

  ExportSummary run_export(ExportOptions o) {
    if (o.out.empty()) o.out = out();
    auto s = export_trajectories({dir_.path() / "run"}, o);
    EXPECT_TRUE(s.ok()) << s.error().message;
    return s.ok() ? *s : ExportSummary{};
  }

  static std::vector<Json> lines(const std::filesystem::path& p) {
    std::vector<Json> v;
    std::ifstream in(p);
    std::string line;
    while (std::getline(in, line)) v.push_back(Json::parse(line));
    return v;
  }

  static std::set<std::string> episodes(const std::vector<Json>& records) {
    std::set<std::string> s;
    for (const auto& r : records) s.insert(r["metadata"]["episode"].get<std::string>());
    return s;
  }

  std::set<std::string> ids(std::initializer_list<std::pair<const char*, int>> list) {
    std::set<std::string> s;
    for (const auto& [t, i] : list) s.insert(mixed_episode(t, i));
    return s;
  }

  testing::TempDir dir_;
};

TEST_F(VerifiedExportTest, DefaultSftKeepsExactlyTheVerifiedEpisodes) {
  for (auto format : {ExportFormat::openai, ExportFormat::sharegpt, ExportFormat::trl}) {
    ExportOptions o;
    o.format = format;
    auto s = run_export(o);
    EXPECT_EQ(episodes(lines(out())), ids({{"a", 0}, {"b", 0}, {"b", 1}, {"c", 0}}))
        << to_string(format);
    EXPECT_EQ(s.excluded, (std::map<std::string, int64_t>{{"compile_only", 1},
                                                          {"flagged", 1},
                                                          {"incorrect", 4},
                                                          {"no_submit", 1},
                                                          {"unfinished", 1},
                                                          {"unstable", 2}}))
        << s.to_text();
  }
  for (const auto& r : lines(out())) {
    const Json& m = r["metadata"];
    EXPECT_TRUE(m["verified"].get<bool>());
    EXPECT_TRUE(m["rejection"].is_null());
    EXPECT_DOUBLE_EQ(m["correct_share"].get<double>(), 1.0);
    EXPECT_EQ(m["flags"], Json::array());
  }
}

TEST_F(VerifiedExportTest, TrainingEndsAtTheVerifiedSubmit) {
  run_export({});
  for (const auto& r : lines(out())) {
    if (r["metadata"]["episode"] != mixed_episode("a", 0)) continue;
    const Json& msgs = r["messages"];
    ASSERT_FALSE(msgs.empty());
    // The closing message after the submit is not trained on: the record ends
    // at the assistant message that submitted.
    EXPECT_EQ(msgs.back()["content"], "a0 submit");
    EXPECT_EQ(msgs.back()["tool_calls"][0]["function"]["name"], "submit");
    EXPECT_EQ(msgs.back()["weight"], 1);
    EXPECT_DOUBLE_EQ(r["metadata"]["as"].get<double>(), 1.5);
    EXPECT_EQ(r["metadata"]["evaluation"], mixed_episode("a", 0) + ":t3:e0");
    return;
  }
  FAIL() << "a:0 not exported";
}

TEST_F(VerifiedExportTest, FinalSubmitDecidesNotAnEarlierCleanEvaluation) {
  // a:6 evaluated cleanly (AS 1.4), then submitted a wrong pass; a:7 never submitted.
  run_export({});
  auto kept = episodes(lines(out()));
  EXPECT_FALSE(kept.count(mixed_episode("a", 6)));
  EXPECT_FALSE(kept.count(mixed_episode("a", 7)));
  ExportOptions raw;
  raw.format = ExportFormat::raw;
  run_export(raw);
  for (const auto& r : lines(out())) {
    if (r["metadata"]["episode"] == mixed_episode("a", 6)) {
      EXPECT_EQ(r["metadata"]["rejection"], "incorrect");
      EXPECT_DOUBLE_EQ(r["metadata"]["as"].get<double>(), 1.1);
    }
    if (r["metadata"]["episode"] == mixed_episode("a", 7)) {
      EXPECT_EQ(r["metadata"]["rejection"], "no_submit");
      EXPECT_TRUE(r["metadata"]["as"].is_null());
    }
  }
}

TEST_F(VerifiedExportTest, EachLooseningAdmitsOnlyItsEpisodes) {
  ExportOptions flagged;
  flagged.include_flagged = true;
  run_export(flagged);
  EXPECT_EQ(episodes(lines(out())), ids({{"a", 0}, {"a", 3}, {"b", 0}, {"b", 1}, {"c", 0}}));

  ExportOptions unstable;
  unstable.include_unstable = true;
  run_export(unstable);
  EXPECT_EQ(episodes(lines(out())),
            ids({{"a", 0}, {"a", 4}, {"b", 0}, {"b", 1}, {"c", 0}, {"c", 1}}));

  ExportOptions co;
  co.include_compile_only = true;
  run_export(co);
  EXPECT_EQ(episodes(lines(out())), ids({{"a", 0}, {"a", 5}, {"b", 0}, {"b", 1}, {"c", 0}}));

  // Two of three variants correct: a:1 (v1), a:2 (hidden v2), a:6 (v0), a:9 (v1).
  ExportOptions share;
  share.min_correct = 0.6;
  run_export(share);
  EXPECT_EQ(episodes(lines(out())),
            ids({{"a", 0}, {"a", 1}, {"a", 2}, {"a", 6}, {"a", 9}, {"b", 0}, {"b", 1}, {"c", 0}}));
  share.min_correct = 0.7;
  run_export(share);
  EXPECT_EQ(episodes(lines(out())).size(), 4u);
}

TEST_F(VerifiedExportTest, PyTorchLevelsJudgeOnlyTheListedVariants) {
  ExportOptions o;
  o.correctness_levels = levels_path();
  auto s = run_export(o);
  EXPECT_TRUE(episodes(lines(out())).count(mixed_episode("a", 9)));
  EXPECT_EQ(s.excluded.at("incorrect"), 3);  // a:1, a:2 and a:6 stay wrong

  auto levels = load_correctness_levels(levels_path());
  ASSERT_TRUE(levels.ok());
  EXPECT_EQ(levels->level_for("a", "v1"), -3);
  EXPECT_EQ(levels->level_for("a", "v0"), -5);
  ASSERT_TRUE(write_file_atomic(dir_.path() / "bad.json", R"({"levels": {"a/v1": "x"}})").ok());
  EXPECT_FALSE(load_correctness_levels(dir_.path() / "bad.json").ok());
  o.correctness_levels = dir_.path() / "missing.json";
  EXPECT_FALSE(export_trajectories({dir_.path() / "run"}, o).ok());
}

TEST_F(VerifiedExportTest, VerificationJudgesEveryVariantAtItsLevel) {
  TaskRecord task = testing::make_task("t");
  VerifyRule strict;
  auto judge = [&](const Json& result, const VerifyRule& rule) {
    auto e = evaluation_from_result(EvalKind::submit, result);
    EXPECT_TRUE(e.ok());
    return verify_evaluation(*e, task, rule);
  };
  std::vector<testing::VariantSpec> vs = {
      {"v0", false, true, 1.2}, {"v1", false, true, 1.2}, {"v2", true, true, 1.2}};
  EXPECT_TRUE(judge(testing::make_result(1.2, vs), strict).verified());
  // A variant the result does not contain was never evaluated: not correct.
  auto missing = vs;
  missing.pop_back();
  Verdict v = judge(testing::make_result(1.2, missing), strict);
  EXPECT_EQ(v.rejection, Rejection::incorrect);
  EXPECT_NEAR(*v.correct_share, 2.0 / 3.0, 1e-12);
  // A failure other than accuracy is never rescued by a level.
  CorrectnessLevels levels;
  levels.levels["t/v0"] = -1;
  VerifyRule relaxed;
  relaxed.levels = &levels;
  Json r = testing::make_result(1.2, vs);
  r["variants"][0]["correct"] = false;
  r["variants"][0]["failure_class"] = "integrity";
  r["variants"][0]["first_passing_level"] = -4;
  EXPECT_EQ(judge(r, relaxed).rejection, Rejection::incorrect);
  r["variants"][0]["failure_class"] = "accuracy";
  EXPECT_TRUE(judge(r, relaxed).verified());
  r["variants"][0]["first_passing_level"] = 0;  // looser than PyTorch's own -1
  EXPECT_EQ(judge(r, relaxed).rejection, Rejection::incorrect);
  // A compile evaluation is never verified.
  auto compile = evaluation_from_result(EvalKind::compile, testing::make_result(1.2, vs));
  EXPECT_EQ(verify_evaluation(*compile, task, strict).rejection, Rejection::compile_only);
}

TEST_F(VerifiedExportTest, DpoNeverChoosesAnUnverifiedSide) {
  ExportOptions o;
  o.format = ExportFormat::dpo;
  auto s = run_export(o);
  auto recs = lines(out());
  // task a: verified sides a:0 (0.9), a:6 (1.4), a:7 (1.6) against each other
  // (3) and against the six unverified (18); b: 1; c: 1.
  ASSERT_EQ(recs.size(), 23u) << s.to_text();
  EXPECT_EQ(s.excluded.at("pairs:no_verified_side"), 15);
  bool saw_issue_pair = false;
  for (const auto& r : recs) {
    const Json& c = r["metadata"]["chosen"];
    const Json& rj = r["metadata"]["rejected"];
    EXPECT_TRUE(c["verified"].get<bool>()) << c;
    for (const Json* side : {&c, &rj}) {
      for (const char* k :
           {"as", "hidden_as", "correct_rate", "correct_share", "flags", "unstable"}) {
        EXPECT_TRUE(side->contains(k)) << k;
      }
    }
    if (rj["verified"].get<bool>()) {
      EXPECT_GT(c["as"].get<double>(), rj["as"].get<double>());
    }
    if (c["episode"] == mixed_episode("a", 0) && rj["episode"] == mixed_episode("a", 1)) {
      // The issue's constructed pair: correct AS 0.9 over incorrect AS 1.59.
      saw_issue_pair = true;
      EXPECT_DOUBLE_EQ(c["as"].get<double>(), 0.9);
      EXPECT_DOUBLE_EQ(rj["as"].get<double>(), 1.59);
      EXPECT_DOUBLE_EQ(rj["correct_rate"].get<double>(), 0.5);
      EXPECT_EQ(rj["rejection"], "incorrect");
    }
  }
  EXPECT_TRUE(saw_issue_pair);
}

TEST_F(VerifiedExportTest, ManifestAndCardDescribeTheExport) {
  ExportOptions o;
  o.include_unstable = true;
  auto splits = parse_splits("train=0.5,val=0.5");
  ASSERT_TRUE(splits.ok());
  o.splits = *splits;
  auto s = run_export(o);
  auto text = read_file(manifest_path(out()));
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(manifest_path(out()), dir_.path() / "out" / "data.manifest.json");
  Json m = Json::parse(*text);
  EXPECT_EQ(m["selection"]["rule"], "verified");
  EXPECT_EQ(m["selection"]["loosened"], Json({"--include-unstable"}));
  EXPECT_EQ(m["selection"]["verified_rule"]["include_unstable"], true);
  EXPECT_EQ(m["counts"]["episodes_read"], 14);
  EXPECT_EQ(m["counts"]["dropped"], Json(s.excluded));
  EXPECT_EQ(m["counts"]["records"], s.records());
  ASSERT_EQ(m["files"].size(), 2u);
  std::set<std::string> seen_tasks;
  for (const auto& f : m["files"]) {
    auto content = read_file(dir_.path() / "out" / f["path"].get<std::string>());
    ASSERT_TRUE(content.ok());
    EXPECT_EQ(f["sha256"], sha256_hex(*content));
    EXPECT_EQ(f["bytes"], content->size());
    for (const auto& t : m["task_split"][f["split"].get<std::string>()]) {
      EXPECT_TRUE(seen_tasks.insert(t.get<std::string>()).second) << t << " in two splits";
    }
  }
  ASSERT_EQ(m["runs"].size(), 1u);
  EXPECT_EQ(m["runs"][0]["id"], testing::kMixedRun);
  EXPECT_EQ(m["runs"][0]["records"], s.records());
  EXPECT_EQ(m["models"], Json({"test-model"}));
  EXPECT_EQ(m["prompt_variants"], Json({"default"}));
  EXPECT_EQ(m["gpus"], Json({"NVIDIA H200"}));

  auto card = read_file(card_path(out()));
  ASSERT_TRUE(card.ok());
  EXPECT_EQ(card->rfind("---\npretty_name: ", 0), 0u);
  EXPECT_NE(card->find("configs:\n- config_name: default\n  data_files:\n  - split: \"train\"\n"
                       "    path: \"data.train.jsonl\"\n"),
            std::string::npos)
      << *card;
  EXPECT_NE(card->find("`--include-unstable`"), std::string::npos);
  EXPECT_NE(card->find(m["files"][0]["sha256"].get<std::string>()), std::string::npos);
}

TEST_F(VerifiedExportTest, SplitAndDedupeOnAMixedStore) {
  ExportOptions o;
  o.dedupe = true;
  auto splits = parse_splits("train=0.5,val=0.5");
  ASSERT_TRUE(splits.ok());
  o.splits = *splits;
  auto s = run_export(o);
  EXPECT_EQ(s.excluded.at("dedupe"), 1);  // b:1's final pass is b:0's
  std::map<std::string, std::string> split_of_task;
  std::set<std::string> all;
  for (const auto& split : {"train", "val"}) {
    for (const auto& r : lines(split_path(out(), split))) {
      std::string task = r["metadata"]["task"];
      auto [it, fresh] = split_of_task.emplace(task, split);
      EXPECT_EQ(it->second, split) << task << " in two splits";
      all.insert(r["metadata"]["episode"].get<std::string>());
    }
  }
  EXPECT_EQ(all, ids({{"a", 0}, {"b", 0}, {"c", 0}}));
}

}  // namespace
}  // namespace pf::traj
