#include <gtest/gtest.h>
#include <sqlite3.h>

#include "store_fixture.h"
#include "trajectories/store_merge.h"
#include "trajectories/trajectory_reader.h"

namespace pf::traj {
namespace {

using testing::EpisodeSpec;
using testing::TurnSpec;

std::unique_ptr<TrajectoryStore> open_store(const std::filesystem::path& dir) {
  auto s = TrajectoryStore::open(dir, TrajectoryStore::OpenMode::create);
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? std::move(*s) : nullptr;
}

TurnSpec eval(double as, const std::string& file) {
  TurnSpec t;
  t.result = testing::make_result(as, {{"v0", false, true, as}, {"v1", false, true, as}});
  t.workspace = {{"passes/P.py", file}, {"kernels/shared.cu", "common"}};
  return t;
}

//! A shard: one run with `episodes` episodes of task "a" and "b".
void write_shard(const std::filesystem::path& dir, const std::string& run, int episodes,
                 const std::string& suite = "suite-A", const nlohmann::json& evaluator = nullptr) {
  auto store = open_store(dir);
  ASSERT_TRUE(store);
  RunRecord record = testing::make_run(run, suite);
  if (!evaluator.is_null()) record.config_json["evaluator"] = evaluator;
  ASSERT_TRUE(store->create_run(record).ok());
  ASSERT_TRUE(store->upsert_task(testing::make_task("a", 2, 1, suite)).ok());
  ASSERT_TRUE(store->upsert_task(testing::make_task("b", 2, 1, suite)).ok());
  for (int i = 0; i < episodes; ++i) {
    EpisodeSpec spec{run, i % 2 ? "b" : "a", i};
    spec.turns = {TurnSpec{}, eval(1.0 + i, run + std::to_string(i))};
    testing::write_episode(*store, spec);
  }
}

//! Every row of the store as text, for whole-database comparisons.
std::string dump(const std::filesystem::path& dir) {
  auto r = TrajectoryReader::open(dir);
  EXPECT_TRUE(r.ok());
  std::string out;
  auto runs = r->runs();
  for (const auto& run : *runs) out += run.id + run.task_suite_hash + "\n";
  auto episodes = r->episodes();
  for (const auto& ep : *episodes) {
    out += ep.id + " " + std::string(to_string(ep.status)) + " " + std::to_string(ep.turns) + "\n";
    auto messages = r->messages(ep.id);
    for (const auto& m : *messages) out += std::to_string(m.seq) + m.content + "\n";
    auto evaluations = r->evaluations(ep.id);
    for (const auto& e : *evaluations) {
      out += e.id + json_text(e.result) + "\n";
      auto ws = r->workspace(e.workspace_sha);
      for (const auto& [p, c] : *ws) out += p + c + "\n";
    }
    out += std::to_string(r->llm_calls(ep.id)->size()) + "\n";
  }
  return out;
}

TEST(Merge, CombinesShardsWithoutLossAndIsIdempotent) {
  testing::TempDir dir;
  auto s1 = dir.path() / "runs" / "s1", s2 = dir.path() / "runs" / "s2",
       out = dir.path() / "merged";
  write_shard(s1, "20250101T000000Z-00000001", 3);
  write_shard(s2, "20250101T000000Z-00000002", 2);
  auto m = merge_stores({s1, s2}, out);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->inserted.at("runs"), 2);
  EXPECT_EQ(m->inserted.at("tasks"), 2);
  EXPECT_EQ(m->inserted.at("episodes"), 5);
  EXPECT_EQ(m->inserted.at("messages"), 5 * 6);
  EXPECT_EQ(m->inserted.at("evaluations"), 5);
  EXPECT_EQ(m->inserted.at("llm_calls"), 10);
  EXPECT_EQ(m->inserted.at("artifacts"), 5 * 2 + 1);  // a file + manifest each, one shared file

  std::string merged = dump(out);
  std::string d1 = dump(s1), d2 = dump(s2);
  // Every shard's rows appear in the merged store.
  for (const std::string* d : {&d1, &d2}) {
    size_t pos = 0;
    while (pos < d->size()) {
      size_t nl = d->find('\n', pos);
      std::string line = d->substr(pos, nl - pos);
      EXPECT_NE(merged.find(line), std::string::npos) << line;
      pos = nl + 1;
    }
  }
  auto again = merge_stores({s1, s2, s1}, out);
  ASSERT_TRUE(again.ok()) << again.error().message;
  for (const auto& [table, n] : again->inserted) EXPECT_EQ(n, 0) << table;
  EXPECT_EQ(again->episodes_updated, 0);
  EXPECT_NE(again->to_text().find("nothing new"), std::string::npos);
  EXPECT_EQ(dump(out), merged);
  auto r = TrajectoryReader::open(out);
  EXPECT_TRUE(r->check_integrity().ok());
}

TEST(Merge, KeepsTheFurtherAlongCopyOfAnEpisode) {
  testing::TempDir dir;
  auto live = dir.path() / "live", snapshot = dir.path() / "snapshot", out = dir.path() / "out";
  const std::string run = "20250101T000000Z-0000000a";
  std::string id;
  {
    auto store = open_store(live);
    ASSERT_TRUE(store->create_run(testing::make_run(run)).ok());
    ASSERT_TRUE(store->upsert_task(testing::make_task("a")).ok());
    EpisodeSpec spec{run, "a", 0};
    spec.turns = {eval(1.1, "first")};
    spec.final_status = RunState::running;
    id = testing::write_episode(*store, spec);
  }
  std::filesystem::create_directories(snapshot);
  std::filesystem::copy(
      live, snapshot,
      std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
  {
    auto store = open_store(live);
    TurnRecord t;
    t.episode_id = id;
    t.turn = 2;
    t.messages.resize(1);
    t.messages[0].content = "later";
    ASSERT_TRUE(store->append_turn(t).ok());
    ASSERT_TRUE(store->finish_episode({id, RunState::finished, "submitted", 3.0, ""}).ok());
  }
  ASSERT_TRUE(merge_stores({snapshot}, out).ok());
  auto m = merge_stores({live}, out);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->episodes_updated, 1);
  EXPECT_EQ(m->inserted.at("messages"), 1);
  ASSERT_TRUE(merge_stores({snapshot}, out).ok());  // the older copy changes nothing
  auto r = TrajectoryReader::open(out);
  auto ep = r->episode(id);
  EXPECT_EQ(ep->turns, 2);
  EXPECT_EQ(ep->status, RunState::finished);
  EXPECT_EQ(r->messages(id)->size(), 5u);
}

TEST(Merge, RefusesDifferentTaskSuitesBeforeWriting) {
  testing::TempDir dir;
  auto s1 = dir.path() / "s1", s2 = dir.path() / "s2", out = dir.path() / "out";
  write_shard(s1, "20250101T000000Z-00000001", 1, "suite-A");
  write_shard(s2, "20250101T000000Z-00000002", 1, "suite-B");
  auto m = merge_stores({s1, s2}, out);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("different task suites"), std::string::npos);
  EXPECT_NE(m.error().message.find("suite-A"), std::string::npos);
  EXPECT_NE(m.error().message.find("suite-B"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(Merge, NotesRunsTimedDifferently) {
  testing::TempDir dir;
  auto s1 = dir.path() / "s1", s2 = dir.path() / "s2", s3 = dir.path() / "s3";
  write_shard(s1, "20250101T000000Z-00000001", 1, "suite-A", {{"graph_replay", true}});
  write_shard(s2, "20250101T000000Z-00000002", 1, "suite-A", {{"graph_replay", true}});
  write_shard(s3, "20250101T000000Z-00000003", 1, "suite-A");  // before the key existed
  auto same = merge_stores({s1, s2}, dir.path() / "same");
  ASSERT_TRUE(same.ok()) << same.error().message;
  EXPECT_EQ(same->to_text().find("timed differently"), std::string::npos) << same->to_text();
  auto mixed = merge_stores({s1, s3}, dir.path() / "mixed");
  ASSERT_TRUE(mixed.ok()) << mixed.error().message;
  const std::string text = mixed->to_text();
  EXPECT_NE(text.find("note: runs timed differently (their speedups are not comparable): "
                      "replayed CUDA graphs, end-to-end clock in"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("step-by-step launches (recorded before graph replay), end-to-end clock in"),
            std::string::npos)
      << text;
  // The clock speedups come from is part of how a run was timed.
  auto s4 = dir.path() / "s4";
  write_shard(s4, "20250101T000000Z-00000004", 1, "suite-A",
              {{"graph_replay", true}, {"timing_clock", "device"}});
  auto clocks = merge_stores({s1, s4}, dir.path() / "clocks");
  ASSERT_TRUE(clocks.ok()) << clocks.error().message;
  EXPECT_NE(clocks->to_text().find("replayed CUDA graphs, device clock in"), std::string::npos)
      << clocks->to_text();
}

TEST(Merge, RefusesRunsScoredUnderDifferentModesBeforeWriting) {
  testing::TempDir dir;
  auto s1 = dir.path() / "s1", s2 = dir.path() / "s2", s3 = dir.path() / "s3",
       out = dir.path() / "out";
  write_shard(s1, "20250101T000000Z-00000001", 1, "suite-A", {{"scoring_mode", "passnet"}});
  write_shard(s2, "20250101T000000Z-00000002", 1, "suite-A", {{"scoring_mode", "passnet"}});
  write_shard(s3, "20250101T000000Z-00000003", 1, "suite-A");  // no key: strict
  ASSERT_TRUE(merge_stores({s1, s2}, dir.path() / "same").ok());
  auto m = merge_stores({s1, s3}, out);
  ASSERT_FALSE(m.ok());
  const std::string& msg = m.error().message;
  EXPECT_NE(msg.find("refusing to merge runs scored under different scoring modes"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("scoring_mode 'passnet' in " + s1.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("scoring_mode 'strict' in " + s3.string()), std::string::npos) << msg;
  EXPECT_FALSE(std::filesystem::exists(out));
  // Merging into an output that already holds the other mode is refused too.
  auto into = merge_stores({s3}, dir.path() / "same");
  ASSERT_FALSE(into.ok());
  EXPECT_NE(into.error().message.find("different scoring modes"), std::string::npos);
}

TEST(Merge, RefusesNewerSchemasAndDivergedHistories) {
  testing::TempDir dir;
  auto s1 = dir.path() / "s1", out = dir.path() / "out";
  write_shard(s1, "20250101T000000Z-00000001", 1);
  ASSERT_TRUE(merge_stores({s1}, out).ok());

  // The same episode continued differently elsewhere.
  auto fork = dir.path() / "fork";
  std::filesystem::copy(s1, fork, std::filesystem::copy_options::recursive);
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open((fork / "passforge.db").c_str(), &h), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(h, "UPDATE messages SET content = 'other' WHERE seq = 2", nullptr, nullptr,
                         nullptr),
            SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(h, "INSERT INTO schema_version VALUES (7, 'x')", nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(h);
  auto newer = merge_stores({fork}, out);
  ASSERT_FALSE(newer.ok());
  EXPECT_NE(newer.error().message.find("schema version 7"), std::string::npos)
      << newer.error().message;

  ASSERT_EQ(sqlite3_open((fork / "passforge.db").c_str(), &h), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(h, "DELETE FROM schema_version WHERE version = 7", nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(h);
  auto diverged = merge_stores({fork}, out);
  ASSERT_FALSE(diverged.ok());
  EXPECT_NE(diverged.error().message.find("different history"), std::string::npos)
      << diverged.error().message;

  auto self = merge_stores({out}, out);
  ASSERT_TRUE(self.ok());
  EXPECT_NE(self->to_text().find("is the output"), std::string::npos);
}

//! Runs `sql` on the store of `dir` (tables a module above trajectories keeps).
void exec_sql(const std::filesystem::path& dir, const std::string& sql) {
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "passforge.db").c_str(), &h), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(h, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
      << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(h);
}

std::vector<std::string> rows(const std::filesystem::path& dir, const std::string& sql) {
  std::vector<std::string> out;
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open((dir / "passforge.db").c_str(), &h), SQLITE_OK);
  sqlite3_exec(
      h, sql.c_str(),
      [](void* v, int n, char** cols, char**) {
        std::string row;
        for (int i = 0; i < n; ++i) row += std::string(i ? "|" : "") + (cols[i] ? cols[i] : "");
        static_cast<std::vector<std::string>*>(v)->push_back(row);
        return 0;
      },
      &out, nullptr);
  sqlite3_close(h);
  return out;
}

TEST(Merge, CarriesTablesOutsideTheTrajectorySchemaAndRefusesConflictingRows) {
  testing::TempDir dir;
  auto s1 = dir.path() / "s1", s2 = dir.path() / "s2", out = dir.path() / "out";
  write_shard(s1, "20250101T000000Z-00000001", 1);
  write_shard(s2, "20250101T000000Z-00000002", 1);
  const std::string schema =
      "CREATE TABLE IF NOT EXISTS x_state (id TEXT PRIMARY KEY, v TEXT NOT NULL);"
      "CREATE INDEX IF NOT EXISTS x_state_v ON x_state (v);";
  exec_sql(s1, schema + "INSERT INTO x_state VALUES ('e1', 'one'), ('shared', 's');");
  exec_sql(s2, schema + "INSERT INTO x_state VALUES ('e2', 'two'), ('shared', 's');");

  auto m = merge_stores({s1, s2}, out);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->inserted.at("x_state"), 3);
  EXPECT_EQ(rows(out, "SELECT id, v FROM x_state ORDER BY id"),
            (std::vector<std::string>{"e1|one", "e2|two", "shared|s"}));
  EXPECT_EQ(rows(out, "SELECT name FROM sqlite_master WHERE name = 'x_state_v'").size(), 1u);
  auto again = merge_stores({s1, s2}, out);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->inserted.at("x_state"), 0);
  EXPECT_NE(again->to_text().find("nothing new"), std::string::npos);

  // The same key with another value: refused, the output unchanged.
  exec_sql(s2, "UPDATE x_state SET v = 'changed' WHERE id = 'e2'");
  auto conflict = merge_stores({s2}, out);
  ASSERT_FALSE(conflict.ok());
  EXPECT_NE(conflict.error().message.find("1 row(s) of table 'x_state' differ"), std::string::npos)
      << conflict.error().message;
  EXPECT_EQ(rows(out, "SELECT v FROM x_state WHERE id = 'e2'"), std::vector<std::string>{"two"});

  // The table defined differently: refused.
  auto s3 = dir.path() / "s3";
  write_shard(s3, "20250101T000000Z-00000003", 1);
  exec_sql(s3, "CREATE TABLE x_state (id TEXT PRIMARY KEY, v TEXT, w TEXT)");
  auto schema_conflict = merge_stores({s3}, out);
  ASSERT_FALSE(schema_conflict.ok());
  EXPECT_NE(schema_conflict.error().message.find("'x_state' is defined differently"),
            std::string::npos)
      << schema_conflict.error().message;
}

}  // namespace
}  // namespace pf::traj
