#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "common/fs.h"
#include "store_fixture.h"
#include "trajectories/exporter.h"
#include "trajectories/record_json.h"
#include "trajectories/trajectory_reader.h"

namespace pf::traj {
namespace {

using testing::EpisodeSpec;
using testing::TurnSpec;
using testing::VariantSpec;

constexpr const char* kRun = "20250101T000000Z-0000beef";

std::vector<VariantSpec> variants(double speedup) {
  return {{"v0", false, true, speedup}, {"v1", false, true, speedup}, {"v2", true, true, 1.0}};
}

TurnSpec write_turn(const std::string& text) {
  TurnSpec t;
  t.assistant = text;
  return t;
}

TurnSpec eval_turn(const std::string& text, double as, const Workspace& ws = {},
                   const std::vector<std::string>& flags = {}) {
  TurnSpec t;
  t.assistant = text;
  t.kind = EvalKind::evaluate;
  t.result = testing::make_result(as, variants(as), flags);
  t.workspace = ws;
  t.feedback = "AS " + std::to_string(as);
  return t;
}

//! The episode's final submit: what the verified rule judges.
TurnSpec submit_turn(const std::string& text, double as, const Workspace& ws = {},
                     const std::vector<std::string>& flags = {}) {
  TurnSpec t = eval_turn(text, as, ws, flags);
  t.kind = EvalKind::submit;
  return t;
}

std::string ep_id(const std::string& task, int sample) {
  return std::string(kRun) + ":" + task + ":s" + std::to_string(sample);
}

//! Task "a" (tools mode) and task "b" (chat mode), episodes described inline.
class ExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = TrajectoryStore::open(dir_.path(), TrajectoryStore::OpenMode::create);
    ASSERT_TRUE(s.ok()) << s.error().message;
    auto& store = **s;
    ASSERT_TRUE(store.create_run(testing::make_run(kRun)).ok());
    ASSERT_TRUE(store.upsert_task(testing::make_task("a")).ok());
    ASSERT_TRUE(store.upsert_task(testing::make_task("b")).ok());

    EpisodeSpec a0{kRun, "a", 0};
    auto t2 = eval_turn("a0 evaluate 1", 1.2, {{"passes/P.py", "v1"}});
    t2.reasoning = "the kernel is memory bound";
    a0.turns = {write_turn("a0 write 1"), t2, write_turn("a0 write 2"),
                eval_turn("a0 evaluate 2", 0.9, {{"passes/P.py", "v2"}}),
                submit_turn("a0 evaluate 3", 1.5, {{"passes/P.py", "v3"}})};
    testing::write_episode(store, a0);

    EpisodeSpec a1{kRun, "a", 1};
    a1.turns = {eval_turn("a1 evaluate 1", 0.1), submit_turn("a1 evaluate 2", 0.05)};
    testing::write_episode(store, a1);

    EpisodeSpec a2{kRun, "a", 2};
    a2.turns = {submit_turn("a2 evaluate 1", 2.0, {{"passes/P.py", "hack"}}, {"timer_read"})};
    testing::write_episode(store, a2);

    EpisodeSpec a3{kRun, "a", 3};
    a3.turns = {submit_turn("a3 evaluate 1", 1.3)};
    a3.final_status = RunState::running;
    testing::write_episode(store, a3);

    EpisodeSpec b0{kRun, "b", 0};
    b0.mode = AgentMode::chat;
    b0.turns = {eval_turn("b0 answer 1", 1.1, {{"passes/Q.py", "w2"}}),
                submit_turn("b0 answer 2", 1.3, {{"passes/Q.py", "w3"}})};
    testing::write_episode(store, b0);

    EpisodeSpec b1{kRun, "b", 1};
    b1.mode = AgentMode::chat;
    b1.turns = {submit_turn("b1 answer 1", 1.3, {{"passes/Q.py", "w3"}})};
    testing::write_episode(store, b1);
  }

  ExportSummary run_export(ExportOptions options) {
    if (options.out.empty()) options.out = dir_.path() / "out.jsonl";
    auto s = export_trajectories({dir_.path()}, options);
    EXPECT_TRUE(s.ok()) << s.error().message;
    return s.ok() ? *s : ExportSummary{};
  }

  std::vector<Json> read_lines(const std::filesystem::path& p) {
    std::vector<Json> out;
    std::ifstream in(p);
    std::string line;
    while (std::getline(in, line)) {
      Json j = Json::parse(line, nullptr, false);
      EXPECT_FALSE(j.is_discarded()) << line;
      out.push_back(j);
    }
    return out;
  }

  std::map<std::string, Json> by_episode(const std::vector<Json>& records) {
    std::map<std::string, Json> m;
    for (const auto& r : records) m[r["metadata"]["episode"].get<std::string>()] = r;
    return m;
  }

  void expect_python_loads(const std::filesystem::path& p) {
    if (std::system("python3 -c 'import json' >/dev/null 2>&1") != 0) {
      GTEST_SKIP() << "python3 not available: JSON lines checked with nlohmann only";
    }
    std::string cmd =
        "python3 -c 'import json,sys\nfor l in open(sys.argv[1]): json.loads(l)' " + p.string();
    EXPECT_EQ(std::system(cmd.c_str()), 0) << "python's json module rejected " << p;
  }

  testing::TempDir dir_;
};

std::set<std::string> keys(const Json& j) {
  std::set<std::string> k;
  for (const auto& [key, v] : j.items()) k.insert(key);
  return k;
}

TEST_F(ExportTest, OpenAiRecordsHaveTheDocumentedShape) {
  auto summary = run_export({});
  auto recs = by_episode(read_lines(dir_.path() / "out.jsonl"));
  ASSERT_EQ(recs.size(), 3u);  // a0, b0, b1
  const Json& r = recs.at(ep_id("a", 0));
  EXPECT_EQ(keys(r), (std::set<std::string>{"messages", "tools", "metadata"}));
  EXPECT_EQ(r["tools"], testing::tools_schema());
  const Json& m = r["messages"];
  ASSERT_EQ(m.size(), 2u + 2 * 5 - 1);  // the last tool answer is cut: nothing trains on it
  EXPECT_EQ(m[0], Json({{"role", "system"}, {"content", "You write compiler passes."}}));
  EXPECT_EQ(m[1]["role"], "user");
  const Json& a1 = m[2];
  EXPECT_EQ(keys(a1), (std::set<std::string>{"role", "content", "tool_calls", "weight"}));
  EXPECT_EQ(a1["content"], "a0 write 1");
  EXPECT_EQ(a1["weight"], 1);
  ASSERT_EQ(a1["tool_calls"].size(), 1u);
  const Json& call = a1["tool_calls"][0];
  EXPECT_EQ(keys(call), (std::set<std::string>{"id", "type", "function"}));
  EXPECT_EQ(call["type"], "function");
  EXPECT_EQ(call["function"]["name"], "write_file");
  ASSERT_TRUE(call["function"]["arguments"].is_string());
  EXPECT_EQ(Json::parse(call["function"]["arguments"].get<std::string>())["path"], "passes/P.py");
  const Json& t1 = m[3];
  EXPECT_EQ(keys(t1), (std::set<std::string>{"role", "tool_call_id", "content"}));
  EXPECT_EQ(t1["tool_call_id"], call["id"]);
  EXPECT_EQ(m[4]["reasoning_content"], "the kernel is memory bound");
  EXPECT_EQ(m.back()["role"], "assistant");

  const Json& meta = r["metadata"];
  EXPECT_EQ(meta["run"], kRun);
  EXPECT_EQ(meta["task"], "a");
  EXPECT_EQ(meta["sample"], 0);
  EXPECT_EQ(meta["prompt_variant"], "default");
  EXPECT_EQ(meta["model"], "test-model");
  EXPECT_DOUBLE_EQ(meta["best_as"].get<double>(), 1.5);
  EXPECT_EQ(meta["best_evaluation"], ep_id("a", 0) + ":t5:e0");
  EXPECT_EQ(meta["es_curve"].size(), 15u);
  EXPECT_EQ(meta["flags"], Json::array());
  EXPECT_EQ(meta["provenance"]["gpu"], "NVIDIA H200");
  EXPECT_EQ(meta["provenance"]["task_suite_hash"], "suite-A");
  EXPECT_EQ(meta["provenance"]["variants"], Json({"v0", "v1"}));
  EXPECT_EQ(meta["provenance"]["hidden_variants"], Json({"v2"}));

  const Json& chat = recs.at(ep_id("b", 0));
  EXPECT_FALSE(chat.contains("tools"));
  EXPECT_EQ(chat["messages"][3]["role"], "user");
  EXPECT_EQ(summary.records(), 3);
  expect_python_loads(dir_.path() / "out.jsonl");
}

TEST_F(ExportTest, WeightModesChooseTheTrainedAssistantMessages) {
  auto weights = [](const Json& rec) {
    std::vector<int> w;
    for (const auto& m : rec["messages"]) {
      if (m["role"] == "assistant") w.push_back(m["weight"].get<int>());
    }
    return w;
  };
  ExportOptions final_opts;
  final_opts.weight = WeightMode::final;
  run_export(final_opts);
  auto fin = by_episode(read_lines(dir_.path() / "out.jsonl"));
  EXPECT_EQ(weights(fin.at(ep_id("a", 0))), (std::vector<int>{0, 0, 0, 0, 1}));

  ExportOptions improving;
  improving.weight = WeightMode::improving;
  run_export(improving);
  auto imp = by_episode(read_lines(dir_.path() / "out.jsonl"));
  // evaluations: t2 1.2 (improves: turns 1-2), t4 0.9 (does not: 3-4), t5 1.5 (improves: 5)
  EXPECT_EQ(weights(imp.at(ep_id("a", 0))), (std::vector<int>{1, 1, 0, 0, 1}));
  // b1's only answer improves on nothing before it: weighted.
  EXPECT_EQ(weights(imp.at(ep_id("b", 1))), (std::vector<int>{1}));
}

TEST_F(ExportTest, ReasoningDropRemovesReasoningContent) {
  ExportOptions o;
  o.reasoning = ReasoningMode::drop;
  run_export(o);
  auto recs = by_episode(read_lines(dir_.path() / "out.jsonl"));
  for (const auto& m : recs.at(ep_id("a", 0))["messages"]) {
    EXPECT_FALSE(m.contains("reasoning_content"));
  }
}

TEST_F(ExportTest, ShareGptFollowsLlamaFactoryConventions) {
  ExportOptions o;
  o.format = ExportFormat::sharegpt;
  run_export(o);
  auto recs = by_episode(read_lines(dir_.path() / "out.jsonl"));
  const Json& r = recs.at(ep_id("a", 0));
  EXPECT_EQ(keys(r), (std::set<std::string>{"conversations", "system", "tools", "metadata"}));
  EXPECT_EQ(r["system"], "You write compiler passes.");
  ASSERT_TRUE(r["tools"].is_string());
  Json tools = Json::parse(r["tools"].get<std::string>());
  ASSERT_EQ(tools.size(), 2u);
  EXPECT_EQ(tools[0]["name"], "write_file");
  EXPECT_TRUE(tools[0].contains("parameters"));
  const Json& c = r["conversations"];
  std::vector<std::string> from;
  for (const auto& turn : c) {
    EXPECT_EQ(keys(turn), (std::set<std::string>{"from", "value"}));
    from.push_back(turn["from"]);
  }
  EXPECT_EQ(from,
            (std::vector<std::string>{"human", "function_call", "observation", "function_call",
                                      "observation", "function_call", "observation",
                                      "function_call", "observation", "function_call"}));
  Json call = Json::parse(c[1]["value"].get<std::string>());
  EXPECT_EQ(call["name"], "write_file");
  EXPECT_EQ(call["arguments"]["path"], "passes/P.py");  // an object, not a string
  std::string with_think = c[3]["value"];
  EXPECT_EQ(with_think.rfind("<think>\nthe kernel is memory bound\n</think>\n\n", 0), 0u);
  EXPECT_EQ(r["metadata"]["assistant_weights"], Json({1, 1, 1, 1, 1}));

  const Json& chat = recs.at(ep_id("b", 0));
  EXPECT_FALSE(chat.contains("tools"));
  EXPECT_EQ(chat["conversations"][0]["from"], "human");
  EXPECT_EQ(chat["conversations"][1], Json({{"from", "gpt"}, {"value", "b0 answer 1"}}));
  EXPECT_EQ(chat["conversations"][2]["from"], "human");
  expect_python_loads(dir_.path() / "out.jsonl");
}

TEST_F(ExportTest, TrlRecordsCarryArgumentsAsObjects) {
  ExportOptions o;
  o.format = ExportFormat::trl;
  run_export(o);
  auto recs = by_episode(read_lines(dir_.path() / "out.jsonl"));
  const Json& r = recs.at(ep_id("a", 0));
  EXPECT_EQ(keys(r), (std::set<std::string>{"messages", "tools", "metadata"}));
  EXPECT_EQ(r["tools"], testing::tools_schema());
  const Json& m = r["messages"];
  EXPECT_EQ(m[0], Json({{"role", "system"}, {"content", "You write compiler passes."}}));
  const Json& call = m[2]["tool_calls"][0];
  EXPECT_EQ(call["function"]["name"], "write_file");
  ASSERT_TRUE(call["function"]["arguments"].is_object());
  EXPECT_EQ(call["function"]["arguments"]["path"], "passes/P.py");
  EXPECT_FALSE(m[2].contains("weight"));
  EXPECT_EQ(m[3]["role"], "tool");
  EXPECT_EQ(m[3]["name"], "write_file");
  EXPECT_EQ(m[3]["tool_call_id"], call["id"]);
  EXPECT_EQ(m[4]["reasoning_content"], "the kernel is memory bound");
  EXPECT_EQ(r["metadata"]["assistant_weights"].size(), 5u);
  expect_python_loads(dir_.path() / "out.jsonl");
}

TEST_F(ExportTest, FiltersExcludeAndCountEpisodes) {
  auto s = run_export({});
  EXPECT_EQ(s.episodes_read, 6);
  EXPECT_EQ(s.excluded,
            (std::map<std::string, int64_t>{{"flagged", 1}, {"min_as", 1}, {"unfinished", 1}}));

  ExportOptions flagged;
  flagged.include_flagged = true;
  auto f = run_export(flagged);
  auto recs = by_episode(read_lines(dir_.path() / "out.jsonl"));
  EXPECT_TRUE(recs.count(ep_id("a", 2)));
  EXPECT_EQ(recs.at(ep_id("a", 2))["metadata"]["flags"], Json({"timer_read"}));
  EXPECT_EQ(f.excluded.at("min_as"), 1);

  ExportOptions min0;
  min0.min_as = 0.0;
  auto m0 = run_export(min0);
  EXPECT_EQ(m0.records(), 4);  // a1 (submit 0.05) now passes; a2 is flagged

  ExportOptions best;
  best.best_only = true;
  auto b = run_export(best);
  auto brecs = by_episode(read_lines(dir_.path() / "out.jsonl"));
  EXPECT_EQ(brecs.size(), 2u);
  EXPECT_TRUE(brecs.count(ep_id("a", 0)));
  EXPECT_TRUE(brecs.count(ep_id("b", 0)));  // tie at 1.3: the smaller id
  EXPECT_EQ(b.excluded.at("best_only"), 1);

  ExportOptions dedupe;
  dedupe.dedupe = true;
  auto d = run_export(dedupe);
  EXPECT_EQ(d.excluded.at("dedupe"), 1);  // b1's final pass is b0's
  EXPECT_EQ(d.records(), 2);

  // Every record ends at an assistant message whose call reported 100 + 20 tokens.
  ExportOptions at_limit;
  at_limit.max_tokens = 120;
  auto t = run_export(at_limit);
  EXPECT_EQ(t.records(), 3);
  EXPECT_EQ(t.excluded.count("max_tokens"), 0u);
  ExportOptions below;
  below.max_tokens = 119;
  auto none = run_export(below);
  EXPECT_EQ(none.records(), 0);
  EXPECT_EQ(none.excluded.at("max_tokens"), 3);
}

TEST_F(ExportTest, SplitsAreDeterministicByTaskAndDisjoint) {
  ExportOptions o;
  o.min_as = 0.0;
  o.include_flagged = true;
  auto splits = parse_splits("train=0.5,val=0.5");
  ASSERT_TRUE(splits.ok());
  o.splits = *splits;
  auto s = run_export(o);
  auto train = read_lines(dir_.path() / "out.train.jsonl");
  auto val = read_lines(dir_.path() / "out.val.jsonl");
  EXPECT_EQ(train.size() + val.size(), 5u);
  std::set<std::string> train_tasks, val_tasks;
  for (const auto& r : train) {
    train_tasks.insert(r["metadata"]["task"]);
    EXPECT_EQ(r["metadata"]["split"], "train");
  }
  for (const auto& r : val) val_tasks.insert(r["metadata"]["task"]);
  for (const auto& t : train_tasks) EXPECT_FALSE(val_tasks.count(t)) << t;
  EXPECT_EQ(split_for_task(*splits, "a"), split_for_task(*splits, "a"));
  auto first = read_file(dir_.path() / "out.train.jsonl");
  run_export(o);
  EXPECT_EQ(*read_file(dir_.path() / "out.train.jsonl"), *first);
}

TEST(ExportOptions, SplitSpecErrorsAreClear) {
  EXPECT_FALSE(parse_splits("train=0.9").ok());
  EXPECT_NE(parse_splits("train=0.9,val=0.2").error().message.find("sum to 1.1"),
            std::string::npos);
  EXPECT_FALSE(parse_splits("train").ok());
  EXPECT_FALSE(parse_splits("a b=1").ok());
  EXPECT_FALSE(parse_splits("a=1,a=0").ok());
  auto ok = parse_splits("train=0.8,val=0.1,test=0.1");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->size(), 3u);
  EXPECT_EQ(split_path("d/x.jsonl", "val"), std::filesystem::path("d/x.val.jsonl"));
  // Over many task ids the shares follow the fractions.
  int train = 0;
  for (int i = 0; i < 4000; ++i)
    train += split_for_task(*ok, "task-" + std::to_string(i)) == "train";
  EXPECT_NEAR(train / 4000.0, 0.8, 0.03);
}

TEST_F(ExportTest, DpoPairsShareAPrefixAndPreferHigherAs) {
  ExportOptions o;
  o.format = ExportFormat::dpo;
  auto s = run_export(o);
  auto recs = read_lines(dir_.path() / "out.jsonl");
  ASSERT_EQ(recs.size(), 3u) << s.to_text();
  EXPECT_EQ(s.excluded.at("pairs:min_as"), 1);  // a1 (verified, 0.1) over a2 (flagged)
  std::map<std::pair<std::string, std::string>, Json> pairs;
  for (const auto& r : recs) {
    EXPECT_EQ(keys(r).count("prompt") + keys(r).count("chosen") + keys(r).count("rejected"), 3u);
    pairs[{r["metadata"]["chosen"]["episode"], r["metadata"]["rejected"]["episode"]}] = r;
  }
  ASSERT_TRUE(pairs.count({ep_id("a", 0), ep_id("a", 1)}));
  ASSERT_TRUE(pairs.count({ep_id("a", 0), ep_id("a", 2)}));
  ASSERT_TRUE(pairs.count({ep_id("b", 1), ep_id("b", 0)}));
  const Json& p = pairs.at({ep_id("a", 0), ep_id("a", 1)});
  EXPECT_EQ(p["prompt"].size(), 2u);
  EXPECT_EQ(p["prompt"][0]["role"], "system");
  // a0 continues until the assistant message that triggered its first evaluation (turn 2).
  ASSERT_EQ(p["chosen"].size(), 3u);
  EXPECT_EQ(p["chosen"][0]["content"], "a0 write 1");
  EXPECT_EQ(p["chosen"][1]["role"], "tool");
  EXPECT_EQ(p["chosen"][2]["content"], "a0 evaluate 1");
  ASSERT_EQ(p["rejected"].size(), 1u);
  EXPECT_EQ(p["rejected"][0]["content"], "a1 evaluate 1");
  EXPECT_DOUBLE_EQ(p["metadata"]["chosen"]["as"].get<double>(), 1.2);
  EXPECT_DOUBLE_EQ(p["metadata"]["rejected"]["as"].get<double>(), 0.1);
  EXPECT_EQ(p["tools"], testing::tools_schema());
  const Json& hack = pairs.at({ep_id("a", 0), ep_id("a", 2)});
  // A caught hack is never chosen, whatever its AS.
  EXPECT_DOUBLE_EQ(hack["metadata"]["rejected"]["as"].get<double>(), 2.0);
  EXPECT_EQ(hack["metadata"]["rejected"]["verified"], false);
  EXPECT_EQ(hack["metadata"]["rejected"]["rejection"], "flagged");
  EXPECT_EQ(hack["metadata"]["rejected"]["flags"], Json({"timer_read"}));
  expect_python_loads(dir_.path() / "out.jsonl");
}

TEST_F(ExportTest, RawRoundTripsEverythingInTheStore) {
  ExportOptions o;
  o.format = ExportFormat::raw;
  auto s = run_export(o);
  EXPECT_EQ(s.records(), 6);  // raw applies no quality filter unless asked
  auto lines = read_lines(dir_.path() / "out.jsonl");
  auto reader = TrajectoryReader::open(dir_.path());
  ASSERT_TRUE(reader.ok());
  auto runs = reader->runs();
  auto tasks = reader->tasks();
  for (const auto& line : lines) {
    EXPECT_EQ(line["format"], "passforge-raw");
    auto run = run_from_json(line["run"]);
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_EQ(*run, (*runs)[0]);
    auto task = task_from_json(line["task"]);
    ASSERT_TRUE(task.ok());
    EXPECT_EQ(*task, (*tasks)[task->id == "a" ? 0 : 1]);
    auto ep = episode_from_json(line["episode"]);
    ASSERT_TRUE(ep.ok()) << ep.error().message;
    EXPECT_EQ(*ep, *reader->episode(ep->id));
    auto msgs = reader->messages(ep->id);
    ASSERT_EQ(line["messages"].size(), msgs->size());
    for (size_t i = 0; i < msgs->size(); ++i) {
      auto m = message_from_json(line["messages"][i]);
      ASSERT_TRUE(m.ok()) << m.error().message;
      EXPECT_EQ(*m, (*msgs)[i]);
    }
    auto calls = reader->llm_calls(ep->id);
    ASSERT_EQ(line["llm_calls"].size(), calls->size());
    for (size_t i = 0; i < calls->size(); ++i) {
      EXPECT_EQ(*llm_call_from_json(line["llm_calls"][i]), (*calls)[i]);
    }
    auto evals = reader->evaluations(ep->id);
    ASSERT_EQ(line["evaluations"].size(), evals->size());
    for (size_t i = 0; i < evals->size(); ++i) {
      auto e = evaluation_from_json(line["evaluations"][i]);
      ASSERT_TRUE(e.ok()) << e.error().message;
      EXPECT_EQ(*e, (*evals)[i]);
      if ((*evals)[i].workspace_sha.empty()) continue;
      auto ws = reader->workspace((*evals)[i].workspace_sha);
      Json manifest = Json::parse(line["artifacts"][(*evals)[i].workspace_sha].get<std::string>());
      for (const auto& [path, sha] : manifest.items()) {
        EXPECT_EQ(line["artifacts"][sha.get<std::string>()], ws->at(path));
      }
    }
  }
  EXPECT_FALSE(run_from_json(Json::object()).ok());
  EXPECT_NE(episode_from_json(Json{{"id", 3}}).error().message.find("raw episode"),
            std::string::npos);
}

}  // namespace
}  // namespace pf::traj
