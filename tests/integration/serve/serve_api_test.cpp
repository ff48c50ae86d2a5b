// The JSON API, pages and charts of `passforge serve` over a real replay run:
// the real server on an ephemeral port, real HTTP requests (docs/serve.md).
#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "serve/web_server.h"
#include "tests/integration/serve/replay_run.h"
#include "trajectories/trajectory_store.h"

namespace pf::serve {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class ServeApi : public ::testing::Test {
 protected:
  void SetUp() override {
    run_dir_ = serve_test::replay_run_dir();
    ASSERT_FALSE(run_dir_.empty());
    auto catalog = RunCatalog::create({{run_dir_}, {}});
    ASSERT_TRUE(catalog.ok()) << catalog.error().message;
    WebServerOptions o;
    o.port = 0;
    auto server = WebServer::start(std::move(catalog).value(), o);
    ASSERT_TRUE(server.ok()) << server.error().message;
    server_ = std::move(server).value();
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
  }

  json get_json(const std::string& path, int expect = 200) {
    auto res = client_->Get(path.c_str());
    if (!res) {
      ADD_FAILURE() << "GET " << path << ": no response";
      return json();
    }
    EXPECT_EQ(res->status, expect) << path << ": " << res->body;
    EXPECT_EQ(res->get_header_value("Content-Type"), "application/json") << path;
    return json::parse(res->body);
  }

  fs::path run_dir_;
  std::unique_ptr<WebServer> server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(ServeApi, RunsListsTheReplayRunWithProgressAndMode) {
  json runs = get_json("/api/runs")["runs"];
  ASSERT_EQ(runs.size(), 1u) << runs.dump();
  const json& r = runs[0];
  EXPECT_EQ(r["name"], "replay");
  EXPECT_EQ(r["status"], "finished");
  EXPECT_EQ(r["episodes_done"], 3);
  EXPECT_EQ(r["episodes_total"], 3) << "quickstart: 3 tasks x 1 sample";
  EXPECT_EQ(r["runs"][0]["id"], "replay");
  EXPECT_TRUE(r["experiment"].is_null());
  EXPECT_TRUE(r["evaluation_mode"] == "compile_only" || r["evaluation_mode"] == "full") << r.dump();
  EXPECT_TRUE(r["mean_best_as"].is_number());
}

TEST_F(ServeApi, RunHasOneRowPerTaskAndPerEpisode) {
  json r = get_json("/api/runs/replay");
  ASSERT_EQ(r["tasks"].size(), 3u);
  std::set<std::string> tasks;
  for (const auto& t : r["tasks"]) {
    tasks.insert(t["task"].get<std::string>());
    EXPECT_EQ(t["episodes"], 1);
    EXPECT_EQ(t["exit_reasons"]["submitted"], 1) << t.dump();
  }
  EXPECT_TRUE(tasks.count("add-softmax-dropout-a73f2b"));
  ASSERT_EQ(r["episode_rows"].size(), 3u);
  for (const auto& e : r["episode_rows"]) {
    EXPECT_EQ(e["status"], "finished");
    EXPECT_GE(e["evaluations"].get<int>(), 2) << e.dump();
  }
  EXPECT_EQ(r["stats"]["episodes"], 3) << "passforge stats --json's object";
}

TEST_F(ServeApi, EpisodeHasEveryTurnToolCallsEvaluationsFilesAndDiffs) {
  json run = get_json("/api/runs/replay");
  std::string id = run["episode_rows"][0]["id"];
  json e = get_json("/api/runs/replay/episodes/" + id);
  EXPECT_EQ(e["id"], id);
  std::set<std::string> roles;
  bool parsed_arguments = false;
  int64_t last_turn = -1;
  for (const auto& m : e["messages"]) {
    roles.insert(m["role"].get<std::string>());
    EXPECT_GE(m["turn"].get<int64_t>(), last_turn) << "in order";
    last_turn = m["turn"];
    for (const auto& c : m["tool_calls"]) parsed_arguments |= c["arguments"].is_object();
  }
  EXPECT_EQ(last_turn, e["turns"].get<int64_t>()) << "every turn is there";
  EXPECT_TRUE(roles.count("system") && roles.count("user") && roles.count("assistant"));
  if (e["agent_mode"] == "tools") {
    EXPECT_TRUE(roles.count("tool"));
    EXPECT_TRUE(parsed_arguments) << "tool-call arguments arrive parsed";
  }
  ASSERT_GE(e["evaluations"].size(), 2u);
  const json& first = e["evaluations"][0];
  const json& last = e["evaluations"].back();
  EXPECT_FALSE(first["files"].empty()) << "the pass files the evaluation scored";
  EXPECT_FALSE(first["failure_classes"].empty()) << "the demo's wrong first attempt";
  // The demo fixes its wrong first attempt: some later evaluation shows what
  // changed; one that scores the same files again shows no diff.
  bool changed = false;
  for (size_t i = 1; i < e["evaluations"].size(); ++i) {
    const json& ev = e["evaluations"][i];
    const json& before = e["evaluations"][i - 1];
    if (ev["files"] == before["files"]) {
      EXPECT_TRUE(ev["diff"].empty()) << ev["id"];
    }
    for (const auto& f : ev["diff"]) {
      for (const auto& l : f["lines"]) changed |= l[0] == "+" || l[0] == "-";
    }
  }
  EXPECT_TRUE(changed) << "no evaluation after the first changed a file";
  EXPECT_TRUE(last["result"].is_object());

  json missing = get_json("/api/runs/replay/episodes/no-such-episode", 404);
  EXPECT_NE(missing["error"].get<std::string>().find("no-such-episode"), std::string::npos);
}

TEST_F(ServeApi, ChartsAreSvgWithNamedCategories) {
  auto es = client_->Get("/api/runs/replay/charts/es_curve.svg");
  ASSERT_TRUE(es);
  EXPECT_EQ(es->status, 200);
  EXPECT_EQ(es->get_header_value("Content-Type"), "image/svg+xml");
  EXPECT_NE(es->body.find("t = -5"), std::string::npos);
  auto failures = client_->Get("/api/runs/replay/charts/failures.svg");
  ASSERT_TRUE(failures);
  EXPECT_EQ(failures->status, 200);
  json run = get_json("/api/runs/replay");
  for (const auto& [cls, n] : run["stats"]["failure_classes"].items()) {
    EXPECT_NE(failures->body.find(">" + cls + "<"), std::string::npos) << cls;
  }
  auto other = client_->Get("/api/runs/replay/charts/nope.svg");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 404);
}

TEST_F(ServeApi, ExperimentAndExportManifest) {
  json x = get_json("/api/runs/replay/experiment");
  EXPECT_TRUE(x["kind"].is_null());
  auto svg = client_->Get("/api/runs/replay/experiment.svg");
  ASSERT_TRUE(svg);
  EXPECT_EQ(svg->status, 404);
  json m = get_json("/api/runs/replay/export");
  EXPECT_EQ(m["format"], "openai");
  EXPECT_EQ(m["episodes_read"], 3);
  int64_t dropped = 0;
  for (const auto& [k, n] : m["excluded"].items()) dropped += n.get<int64_t>();
  EXPECT_EQ(static_cast<int64_t>(m["kept"].size()) + dropped, 3) << m.dump();
}

TEST_F(ServeApi, PagesAndAssetsAreServedFromTheBinary) {
  for (const char* page : {"/", "/run/replay", "/run/replay/episode/x:y:s0", "/experiments",
                           "/run/replay/experiment"}) {
    auto res = client_->Get(page);
    ASSERT_TRUE(res) << page;
    EXPECT_EQ(res->status, 200) << page;
    EXPECT_NE(res->body.find("/assets/app.js"), std::string::npos) << page;
    EXPECT_NE(res->get_header_value("Content-Security-Policy").find("default-src 'self'"),
              std::string::npos);
  }
  auto js = client_->Get("/assets/app.js");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_NE(js->body.find("function route"), std::string::npos);
  get_json("/api/runs/nope", 404);
  get_json("/assets/nope.js", 404);
}

TEST_F(ServeApi, ServingLeavesTheStoreUntouched) {
  const fs::path db = traj::store_path(run_dir_);
  std::string before = serve_test::file_digest(db);
  json run = get_json("/api/runs/replay");
  for (const auto& e : run["episode_rows"]) {
    get_json("/api/runs/replay/episodes/" + e["id"].get<std::string>());
  }
  get_json("/api/runs/replay/export");
  get_json("/api/runs/replay/experiment");
  EXPECT_EQ(serve_test::file_digest(db), before) << "read-only";
}

}  // namespace
}  // namespace pf::serve

namespace pf::serve {
namespace {

// A run that is still writing: the server shows it running and sees each
// committed turn, while the writer keeps writing (WAL: the reader never blocks it).
TEST(ServeLive, ARunningRunShowsItsProgressAsTurnsCommit) {
  fs::path dir = fs::temp_directory_path() / ("pf_serve_live_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto store = traj::TrajectoryStore::open(dir, traj::TrajectoryStore::OpenMode::create);
  ASSERT_TRUE(store.ok()) << store.error().message;
  traj::RunRecord run;
  run.id = "live";
  run.config_json = {{"run", {{"samples_per_task", 2}}}};
  ASSERT_TRUE((*store)->create_run(run).ok());
  ASSERT_TRUE((*store)->upsert_task({"task-a", "h", json::array(), json::array()}).ok());

  auto catalog = RunCatalog::create({{dir}, {}});
  ASSERT_TRUE(catalog.ok());
  WebServerOptions o;
  o.port = 0;
  auto server = WebServer::start(std::move(catalog).value(), o);
  ASSERT_TRUE(server.ok());
  httplib::Client c("127.0.0.1", (*server)->port());
  auto summary = [&] {
    auto res = c.Get("/api/runs");
    return res ? json::parse(res->body)["runs"][0] : json();
  };
  EXPECT_EQ(summary()["status"], "running");
  EXPECT_EQ(summary()["episodes_total"], 2);
  EXPECT_EQ(summary()["episodes"], 0);

  traj::EpisodeRecord ep;
  ep.run_id = "live";
  ep.task_id = "task-a";
  traj::MessageRecord system;
  system.role = traj::Role::system;
  system.content = "You write passes.";
  auto id = (*store)->start_episode(ep, {system});
  ASSERT_TRUE(id.ok()) << id.error().message;
  EXPECT_EQ(summary()["episodes"], 1);
  EXPECT_EQ(summary()["episodes_done"], 0);

  traj::TurnRecord turn;
  turn.episode_id = *id;
  turn.turn = 1;
  traj::MessageRecord answer;
  answer.role = traj::Role::assistant;
  answer.content = "<script>alert(1)</script> first try";
  turn.messages.push_back(answer);
  ASSERT_TRUE((*store)->append_turn(turn).ok());
  auto e = c.Get(("/api/runs/" + dir.filename().string() + "/episodes/" + *id).c_str());
  ASSERT_TRUE(e);
  ASSERT_EQ(e->status, 200) << e->body;
  json episode = json::parse(e->body);
  ASSERT_EQ(episode["messages"].size(), 2u);
  EXPECT_EQ(episode["messages"][1]["content"], answer.content)
      << "raw text; the page inserts it as text";

  ASSERT_TRUE((*store)->finish_episode({*id, traj::RunState::finished, "submitted", 1.0, ""}).ok());
  ASSERT_TRUE((*store)->finish_run("live", traj::RunState::interrupted).ok());
  EXPECT_EQ(summary()["episodes_done"], 1);
  EXPECT_EQ(summary()["status"], "interrupted");
  (*server)->stop();
  store->reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pf::serve

namespace pf::serve {
namespace {

TEST(ServeExperiment, AnAbStoreShowsArmsPairedDifferencesAndTheForestPlot) {
  fs::path dir = serve_test::ab_run_dir();
  ASSERT_FALSE(dir.empty());
  auto catalog = RunCatalog::create({{dir}, {}});
  ASSERT_TRUE(catalog.ok());
  WebServerOptions o;
  o.port = 0;
  auto server = WebServer::start(std::move(catalog).value(), o);
  ASSERT_TRUE(server.ok());
  httplib::Client c("127.0.0.1", (*server)->port());

  auto runs = c.Get("/api/runs");
  ASSERT_TRUE(runs);
  json summary = json::parse(runs->body)["runs"][0];
  EXPECT_EQ(summary["experiment"], "ab");
  EXPECT_EQ(summary["runs"].size(), 2u) << "one run per arm";
  EXPECT_EQ(summary["episodes_total"], 6) << "2 arms x 3 tasks x 1 sample";

  auto x = c.Get("/api/runs/ab/experiment");
  ASSERT_TRUE(x);
  ASSERT_EQ(x->status, 200) << x->body;
  json report = json::parse(x->body);
  EXPECT_EQ(report["kind"], "ab");
  ASSERT_EQ(report["report"]["arms"].size(), 2u);
  ASSERT_EQ(report["report"]["comparisons"].size(), 1u);
  const json& cmp = report["report"]["comparisons"][0];
  EXPECT_EQ(cmp["tasks"], 3);
  EXPECT_FALSE(cmp["verdict"].get<std::string>().empty());

  auto svg = c.Get("/api/runs/ab/experiment.svg");
  ASSERT_TRUE(svg);
  ASSERT_EQ(svg->status, 200);
  for (const auto& [task, d] : cmp["differences"].items()) {
    EXPECT_NE(svg->body.find(">" + task + "<"), std::string::npos) << task;
  }
  EXPECT_NE(svg->body.find("mean (95% CI)"), std::string::npos);
}

}  // namespace
}  // namespace pf::serve
