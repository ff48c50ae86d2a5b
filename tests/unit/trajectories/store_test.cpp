#include <gtest/gtest.h>
#include <sqlite3.h>

#include <thread>

#include "store_fixture.h"
#include "trajectories/ids.h"
#include "trajectories/result_summary.h"
#include "trajectories/schema.h"
#include "trajectories/trajectory_reader.h"
#include "trajectories/trajectory_store.h"

namespace pf::traj {
namespace {

using testing::EpisodeSpec;
using testing::TempDir;
using testing::TurnSpec;
using testing::VariantSpec;

std::unique_ptr<TrajectoryStore> open_store(const std::filesystem::path& dir) {
  auto s = TrajectoryStore::open(dir, TrajectoryStore::OpenMode::create);
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? std::move(*s) : nullptr;
}

void raw_sql(const std::filesystem::path& db, const std::string& sql) {
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(h, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
      << sqlite3_errmsg(h);
  sqlite3_close(h);
}

std::vector<VariantSpec> good_variants(double speedup) {
  return {{"v0", false, true, speedup}, {"v1", false, true, speedup}, {"v2", true, true, 1.0}};
}

TEST(TrajectoryStore, CreatesWalDatabaseAtCurrentSchemaVersion) {
  TempDir dir;
  auto store = open_store(dir.path() / "runs" / "r1");
  ASSERT_TRUE(store);
  EXPECT_EQ(store->path(), dir.path() / "runs" / "r1" / "passforge.db");
  auto reader = store->reader();
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(*reader->schema_version(), kSchemaVersion);
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(store->path().c_str(), &h), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(h, "PRAGMA journal_mode", -1, &st, nullptr);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "wal");
  sqlite3_finalize(st);
  sqlite3_close(h);
}

TEST(TrajectoryStore, RefusesNewerSchemaWithBothVersions) {
  TempDir dir;
  { ASSERT_TRUE(open_store(dir.path())); }
  raw_sql(dir.path() / "passforge.db",
          "INSERT INTO schema_version(version, applied_at) VALUES (99, 'x')");
  auto s = TrajectoryStore::open(dir.path(), TrajectoryStore::OpenMode::existing);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("schema version 99"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("up to " + std::to_string(kSchemaVersion)), std::string::npos);
  auto r = TrajectoryReader::open(dir.path());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::unsupported);
}

// A store written before the scoring modes were renamed: its "passnet" meant
// "nothing forgiven", today's strict. Opening it migrates the meaning; a store
// written since keeps its "passnet".
TEST(TrajectoryStore, OldPassnetScoringModeReadsAsStrict) {
  TempDir dir;
  for (const char* name : {"old", "new"}) {
    auto store = open_store(dir.path() / name);
    ASSERT_TRUE(store);
    RunRecord run = testing::make_run("20250101T000000Z-00000001");
    run.config_json["evaluator"] = {{"scoring_mode", "passnet"}, {"b", 0.1}};
    ASSERT_TRUE(store->create_run(run).ok());
    ASSERT_TRUE(store->upsert_task(testing::make_task("task_a")).ok());
    EpisodeSpec spec{run.id, "task_a", 0};
    TurnSpec turn;
    turn.result = testing::make_result(0.5, good_variants(2.0));
    (*turn.result)["scoring_mode"] = "passnet";
    (*turn.result)["options"] = {{"scoring_mode", "passnet"}, {"b", 0.1}};
    spec.turns = {turn};
    testing::write_episode(*store, spec);
  }
  // The old store as version 1 wrote it: no later migration applied.
  raw_sql(dir.path() / "old" / "passforge.db",
          "DELETE FROM schema_version WHERE version >= 2; DROP TABLE failed_llm_calls");
  for (const auto& [name, want] : {std::pair{"old", "strict"}, std::pair{"new", "passnet"}}) {
    SCOPED_TRACE(name);
    auto reader = TrajectoryReader::open(dir.path() / name);
    ASSERT_TRUE(reader.ok()) << reader.error().message;
    EXPECT_EQ(*reader->schema_version(), kSchemaVersion);
    auto runs = reader->runs();
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ((*runs)[0].config_json["evaluator"]["scoring_mode"], want);
    EXPECT_EQ((*runs)[0].config_json["evaluator"]["b"], 0.1);
    auto evaluations = reader->evaluations("");
    ASSERT_EQ(evaluations->size(), 1u);
    EXPECT_EQ((*evaluations)[0].result["scoring_mode"], want);
    EXPECT_EQ((*evaluations)[0].result["options"]["scoring_mode"], want);
    EXPECT_EQ((*evaluations)[0].result["as"], 0.5);
  }
}

TEST(TrajectoryStore, RefusesForeignDatabaseAndMissingStore) {
  TempDir dir;
  raw_sql(dir.path() / "other.db", "CREATE TABLE t(x)");
  auto s = TrajectoryStore::open(dir.path() / "other.db", TrajectoryStore::OpenMode::existing);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("not a passforge trajectory store"), std::string::npos);
  auto m = TrajectoryReader::open(dir.path() / "nope");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, ErrorCode::not_found);
}

TEST(TrajectoryStore, RoundTripsEveryRecordThroughTheReaders) {
  TempDir dir;
  auto store = open_store(dir.path());
  ASSERT_TRUE(store);
  auto run = testing::make_run("20250101T000000Z-00000001");
  ASSERT_TRUE(store->create_run(run).ok());
  ASSERT_TRUE(store->upsert_task(testing::make_task("add-relu")).ok());
  TurnSpec write;
  TurnSpec eval;
  eval.reasoning = "think";
  eval.result = testing::make_result(1.5, good_variants(1.5));
  eval.workspace = {{"passes/P.py", "def pattern(x): ..."}, {"kernels/k.cu", "__global__ void k(){}"}};
  EpisodeSpec spec{run.id, "add-relu", 0};
  spec.turns = {write, eval};
  std::string id = testing::write_episode(*store, spec);
  EXPECT_EQ(id, "20250101T000000Z-00000001:add-relu:s0");

  auto reader = store->reader();
  ASSERT_TRUE(reader.ok());
  auto runs = reader->runs();
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ((*runs)[0].gpu_name, "NVIDIA H200");
  EXPECT_EQ((*runs)[0].config_json, run.config_json);
  EXPECT_FALSE((*runs)[0].passforge_version.empty());
  EXPECT_FALSE((*runs)[0].created_at.empty());

  auto ep = reader->episode(id);
  ASSERT_TRUE(ep.ok());
  EXPECT_EQ(ep->turns, 2);
  EXPECT_EQ(ep->prompt_tokens, 200);
  EXPECT_EQ(ep->completion_tokens, 40);
  EXPECT_EQ(ep->status, RunState::finished);
  EXPECT_EQ(ep->tools, testing::tools_schema());
  ASSERT_TRUE(ep->best_as);
  EXPECT_DOUBLE_EQ(*ep->best_as, 1.5);
  EXPECT_EQ(ep->best_evaluation_id, id + ":t2:e0");

  auto msgs = reader->messages(id);
  ASSERT_TRUE(msgs.ok());
  ASSERT_EQ(msgs->size(), 6u);
  for (size_t i = 0; i < msgs->size(); ++i) EXPECT_EQ((*msgs)[i].seq, static_cast<int64_t>(i));
  EXPECT_EQ((*msgs)[0].role, Role::system);
  EXPECT_EQ((*msgs)[0].turn, 0);
  EXPECT_EQ((*msgs)[4].reasoning, "think");
  EXPECT_EQ((*msgs)[4].tool_calls[0]["function"]["name"], "evaluate");
  EXPECT_EQ((*msgs)[5].role, Role::tool);
  EXPECT_EQ((*msgs)[5].tool_call_id, "call_2");
  EXPECT_EQ((*msgs)[5].turn, 2);

  auto evals = reader->evaluations(id);
  ASSERT_TRUE(evals.ok());
  ASSERT_EQ(evals->size(), 1u);
  const auto& e = (*evals)[0];
  EXPECT_EQ(e.turn, 2);
  EXPECT_DOUBLE_EQ(*e.correct_rate, 1.0);
  EXPECT_NEAR(*e.geomean_speedup, 1.5, 1e-12);
  EXPECT_EQ(e.result["variants"].size(), 3u);
  auto ws = reader->workspace(e.workspace_sha);
  ASSERT_TRUE(ws.ok()) << ws.error().message;
  EXPECT_EQ(*ws, eval.workspace);

  auto calls = reader->llm_calls(id);
  ASSERT_TRUE(calls.ok());
  ASSERT_EQ(calls->size(), 2u);
  EXPECT_EQ((*calls)[1].turn, 2);
  EXPECT_EQ((*calls)[1].http_status, 200);
  EXPECT_TRUE(reader->check_integrity().ok());
}

TEST(TrajectoryStore, RefusesOutOfOrderDuplicateAndFinishedTurns) {
  TempDir dir;
  auto store = open_store(dir.path());
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->create_run(testing::make_run("r-1")).ok());
  ASSERT_TRUE(store->upsert_task(testing::make_task("t")).ok());
  EpisodeSpec spec{"r-1", "t", 0};
  spec.turns = {TurnSpec{}};
  spec.final_status = RunState::running;
  std::string id = testing::write_episode(*store, spec);

  TurnRecord dup;
  dup.episode_id = id;
  dup.turn = 1;
  auto r1 = store->append_turn(dup);
  ASSERT_FALSE(r1.ok());
  EXPECT_NE(r1.error().message.find("last committed turn is 1"), std::string::npos);
  dup.turn = 3;
  EXPECT_FALSE(store->append_turn(dup).ok());

  ASSERT_TRUE(store->finish_episode({id, RunState::interrupted, "sigint", 1.0, ""}).ok());
  dup.turn = 2;
  auto r2 = store->append_turn(dup);
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.error().message.find("resume"), std::string::npos);

  auto resumed = store->resume_episode(id);
  ASSERT_TRUE(resumed.ok()) << resumed.error().message;
  EXPECT_EQ(resumed->last_turn, 1);
  EXPECT_EQ(resumed->next_seq, 4);
  EXPECT_EQ(resumed->episode.status, RunState::running);
  EXPECT_TRUE(store->append_turn(dup).ok());

  ASSERT_TRUE(store->finish_episode({id, RunState::finished, "budget", 2.0, ""}).ok());
  EXPECT_FALSE(store->resume_episode(id).ok());
}

// Turns whose evaluation could not run are not charged to max_steps; a
// resume must know them (issue 17), also in a store written before they
// were recorded (migrated to an empty record).
TEST(TrajectoryStore, UnchargedTurnsAreKeptForTheResume) {
  TempDir dir;
  {
    auto old = open_store(dir.path() / "old");
    ASSERT_TRUE(old);
  }
  raw_sql(dir.path() / "old" / "passforge.db",
          "DELETE FROM schema_version WHERE version >= 5; DROP TABLE uncharged_turns");
  for (const char* name : {"new", "old"}) {
    SCOPED_TRACE(name);
    auto store = open_store(dir.path() / name);
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->create_run(testing::make_run("r-1")).ok());
    ASSERT_TRUE(store->upsert_task(testing::make_task("t")).ok());
    EpisodeSpec spec{"r-1", "t", 0};
    spec.turns = {TurnSpec{}};
    spec.final_status = RunState::running;
    const std::string id = testing::write_episode(*store, spec);
    for (int64_t t : {2, 3, 4}) {
      TurnRecord turn;
      turn.episode_id = id;
      turn.turn = t;
      turn.uncharged = t != 3;
      ASSERT_TRUE(store->append_turn(turn).ok());
    }
    ASSERT_TRUE(store->finish_episode({id, RunState::interrupted, "sigint", 1.0, ""}).ok());
    auto resumed = store->resume_episode(id);
    ASSERT_TRUE(resumed.ok()) << resumed.error().message;
    EXPECT_EQ(resumed->last_turn, 4);
    EXPECT_EQ(resumed->uncharged_turns, 2);
  }
}

TEST(TrajectoryStore, InvalidToolCallRollsBackTheWholeTurn) {
  TempDir dir;
  auto store = open_store(dir.path());
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->create_run(testing::make_run("r-1")).ok());
  ASSERT_TRUE(store->upsert_task(testing::make_task("t")).ok());
  EpisodeSpec spec{"r-1", "t", 0};
  spec.final_status = RunState::running;
  std::string id = testing::write_episode(*store, spec);
  TurnRecord bad;
  bad.episode_id = id;
  bad.turn = 1;
  MessageRecord ok_msg;
  ok_msg.role = Role::user;
  ok_msg.content = "fine";
  MessageRecord a;
  a.role = Role::assistant;
  a.tool_calls = Json::array({{{"id", "c"}, {"type", "function"},
                               {"function", {{"name", "f"}, {"arguments", {{"x", 1}}}}}}});
  bad.messages = {ok_msg, a};
  auto r = store->append_turn(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("arguments"), std::string::npos);
  auto reader = store->reader();
  EXPECT_EQ(reader->messages(id)->size(), 2u);
  EXPECT_EQ(reader->episode(id)->turns, 0);
}

TEST(TrajectoryStore, BestEvaluationIgnoresFlaggedUnstableAndCompileOnly) {
  TempDir dir;
  auto store = open_store(dir.path());
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->create_run(testing::make_run("r-1")).ok());
  ASSERT_TRUE(store->upsert_task(testing::make_task("t")).ok());
  TurnSpec honest, hacked, unstable, compile_only;
  honest.result = testing::make_result(1.2, good_variants(1.2));
  hacked.result = testing::make_result(9.0, good_variants(9.0), {"timer_read"});
  auto uv = good_variants(5.0);
  uv[1].unstable = true;
  unstable.result = testing::make_result(5.0, uv);
  compile_only.result = testing::make_result(4.0, good_variants(4.0), {}, "compile_only");
  EpisodeSpec spec{"r-1", "t", 0};
  spec.turns = {honest, hacked, unstable, compile_only};
  std::string id = testing::write_episode(*store, spec);
  auto reader = store->reader();
  auto ep = reader->episode(id);
  ASSERT_TRUE(ep.ok());
  EXPECT_DOUBLE_EQ(*ep->best_as, 1.2);
  EXPECT_EQ(ep->best_evaluation_id, id + ":t1:e0");
  auto evals = reader->evaluations(id);
  ASSERT_EQ(evals->size(), 4u);
  EXPECT_TRUE((*evals)[2].unstable);
  EXPECT_EQ((*evals)[3].mode, EvalMode::compile_only);
}

TEST(TrajectoryStore, IdenticalWorkspacesShareArtifacts) {
  TempDir dir;
  auto store = open_store(dir.path());
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->create_run(testing::make_run("r-1")).ok());
  ASSERT_TRUE(store->upsert_task(testing::make_task("t")).ok());
  TurnSpec t;
  t.result = testing::make_result(1.1, good_variants(1.1));
  t.workspace = {{"passes/A.py", "same"}, {"kernels/a.cu", "same too"}};
  EpisodeSpec spec{"r-1", "t", 0};
  spec.turns = {t, t, t};
  std::string id = testing::write_episode(*store, spec);
  auto reader = store->reader();
  auto evals = reader->evaluations(id);
  ASSERT_EQ(evals->size(), 3u);
  EXPECT_EQ((*evals)[0].workspace_sha, (*evals)[2].workspace_sha);
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(store->path().c_str(), &h), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(h, "SELECT count(*) FROM artifacts", -1, &st, nullptr);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), 3);  // two files and one manifest
  sqlite3_finalize(st);
  sqlite3_close(h);
}

TEST(TrajectoryStore, ThreadsAppendToDifferentEpisodesConcurrently) {
  TempDir dir;
  auto store = open_store(dir.path());
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->create_run(testing::make_run("r-1")).ok());
  ASSERT_TRUE(store->upsert_task(testing::make_task("t")).ok());
  constexpr int kThreads = 6, kTurns = 40;
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  std::atomic<int> failures{0};
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      EpisodeRecord ep;
      ep.run_id = "r-1";
      ep.task_id = "t";
      ep.sample_index = i;
      auto id = store->start_episode(ep, {});
      if (!id.ok()) {
        ++failures;
        return;
      }
      for (int turn = 1; turn <= kTurns; ++turn) {
        TurnRecord rec;
        rec.episode_id = *id;
        rec.turn = turn;
        MessageRecord m;
        m.role = Role::assistant;
        m.content = "turn " + std::to_string(turn);
        rec.messages = {m, m};
        auto e = evaluation_from_result(EvalKind::evaluate,
                                        testing::make_result(1.0 + turn, good_variants(1.0)));
        rec.evaluations.push_back(*e);
        if (!store->append_turn(std::move(rec)).ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures, 0);
  auto reader = store->reader();
  auto eps = reader->episodes();
  ASSERT_EQ(eps->size(), static_cast<size_t>(kThreads));
  for (const auto& ep : *eps) {
    EXPECT_EQ(ep.turns, kTurns);
    EXPECT_EQ(reader->messages(ep.id)->size(), static_cast<size_t>(2 * kTurns));
    EXPECT_DOUBLE_EQ(*ep.best_as, 1.0 + kTurns);
  }
  EXPECT_TRUE(reader->check_integrity().ok());
}

TEST(TrajectoryStore, ReaderSnapshotDoesNotBlockTheWriter) {
  TempDir dir;
  auto store = open_store(dir.path());
  ASSERT_TRUE(store);
  ASSERT_TRUE(store->create_run(testing::make_run("r-1")).ok());
  ASSERT_TRUE(store->upsert_task(testing::make_task("t")).ok());
  EpisodeSpec spec{"r-1", "t", 0};
  spec.final_status = RunState::running;
  std::string id = testing::write_episode(*store, spec);
  auto reader = store->reader();
  ASSERT_TRUE(reader.ok());
  auto st = reader->snapshot([&]() -> Status {
    EXPECT_EQ(reader->messages(id)->size(), 2u);
    TurnRecord rec;
    rec.episode_id = id;
    rec.turn = 1;
    rec.messages.resize(1);
    auto c = store->append_turn(rec);  // commits while the snapshot is open
    EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
    EXPECT_EQ(reader->messages(id)->size(), 2u);
    return ok_status();
  });
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(reader->messages(id)->size(), 3u);
  auto unfinished = reader->unfinished_episodes();
  ASSERT_EQ(unfinished->size(), 1u);
  EXPECT_EQ((*unfinished)[0].last_turn, 1);
  EXPECT_EQ((*unfinished)[0].next_seq, 3);
}

TEST(Ids, AreStableAndParseable) {
  std::string run = make_run_id();
  EXPECT_EQ(run.size(), 25u);
  EXPECT_EQ(run.find(':'), std::string::npos);
  EXPECT_NE(make_run_id(), make_run_id());
  EXPECT_EQ(episode_id("r", "task-1", 3), "r:task-1:s3");
  EXPECT_EQ(evaluation_id("r:task-1:s3", 4, 0), "r:task-1:s3:t4:e0");
  auto t = parse_iso8601("1970-01-02T00:00:01.500Z");
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(*t, 86401.5);
  EXPECT_FALSE(parse_iso8601("yesterday"));
  EXPECT_TRUE(parse_iso8601(now_iso8601()));
}

}  // namespace
}  // namespace pf::traj

namespace pf::traj {
namespace {

TEST(ResultSummary, FillsColumnsFromTheDocumentedFields) {
  Json r = testing::make_result(1.3, {{"v0", false, true, 2.0},
                                      {"v1", false, true, 0.5},
                                      {"v2", false, false, 0, "accuracy"},
                                      {"h", true, false, 0, "runtime_fail"}});
  r["hidden_as"] = 0.1;
  r["failure_class"] = "pass_miss";
  auto e = evaluation_from_result(EvalKind::submit, r);
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->kind, EvalKind::submit);
  EXPECT_DOUBLE_EQ(*e->as_score, 1.3);
  EXPECT_DOUBLE_EQ(*e->hidden_as, 0.1);
  EXPECT_NEAR(*e->correct_rate, 2 / 3.0, 1e-12);
  EXPECT_NEAR(*e->geomean_speedup, 1.0, 1e-12);
  EXPECT_EQ(e->failure_classes, Json({"accuracy", "pass_miss", "runtime_fail"}));
  EXPECT_FALSE(is_correct(*e));
  EXPECT_TRUE(counts_as_success(*e, false));
}

TEST(ResultSummary, WrongTypesAreErrorsNotExceptions) {
  for (const char* bad : {R"({"mode": 3})", R"({"mode": "gpu"})", R"({"as": "high"})",
                          R"({"variants": [{"correct": 1}]})", R"({"variants": [3]})",
                          R"({"variants": [{"speedup": "fast"}]})", R"({"es_curve": [1, 2]})",
                          R"({"hack_flags": [1]})", R"({"unstable": "no"})", R"([1])"}) {
    auto e = evaluation_from_result(EvalKind::evaluate, Json::parse(bad));
    EXPECT_FALSE(e.ok()) << bad;
    if (!e.ok()) {
      EXPECT_NE(e.error().message.find("evaluation result"), std::string::npos) << bad;
    }
  }
  // Readers of stored results never throw either.
  EXPECT_TRUE(variant_outcomes(Json::parse(R"({"variants": [{"correct": 1, "name": 2}]})"))[0]
                  .name.empty());
  EXPECT_DOUBLE_EQ(failure_score(Json::parse(R"({"b": "x"})")), kDefaultFailureScore);
}

}  // namespace
}  // namespace pf::traj
