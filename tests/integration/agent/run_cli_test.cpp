// `passforge run` as a user runs it: a real process with the built-in demo
// replay (both agent modes, real compile-only evaluations), killed with
// SIGKILL and resumed, interrupted with SIGINT (exit 130) and resumed. The
// store must end with every episode exactly once, every turn exactly once.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <regex>
#include <thread>

#include "common/fs.h"
#include "common/strings.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"
#include "tests/integration/agent/episode_harness.h"
#include "tests/integration/agent/slow_replay_server.h"
#include "tests/support/paths.h"
#include "trajectories/trajectory_reader.h"

namespace pf::testing {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const std::string kPassforge = std::string(PF_BINARY_DIR) + "/passforge";

struct Child {
  pid_t pid = -1;
  fs::path out, err;
};

// Starts passforge from the source root (prompts/ resolves there) without the
// machine's endpoint variables; `max_file_bytes` > 0 caps every file the
// process writes (RLIMIT_FSIZE, SIGXFSZ ignored: a write past it fails), which
// is how a full disk looks to SQLite.
Child spawn(const std::vector<std::string>& args, const fs::path& dir, rlim_t max_file_bytes = 0) {
  static int n = 0;
  Child c;
  c.out = dir / ("out" + std::to_string(n));
  c.err = dir / ("err" + std::to_string(n++));
  std::vector<std::string> all = {kPassforge};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  c.pid = fork();
  if (c.pid == 0) {
    int out = ::open(c.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = ::open(c.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(126);
    unsetenv("OPENAI_BASE_URL");
    unsetenv("OPENAI_MODEL");
    if (max_file_bytes > 0) {
      signal(SIGXFSZ, SIG_IGN);
      rlimit limit{max_file_bytes, RLIM_INFINITY};
      if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(125);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  return c;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string text(const fs::path& p) {
  return read_file(p).value_or("");
}

// Committed turns of all episodes so far (0 while the store does not exist yet).
int64_t committed_turns(const fs::path& run_dir) {
  std::error_code ec;
  if (!fs::exists(run_dir / "passforge.db", ec)) return 0;
  auto r = traj::TrajectoryReader::open(run_dir);
  if (!r.ok()) return 0;
  auto eps = r->episodes();
  if (!eps.ok()) return 0;
  int64_t turns = 0;
  for (const auto& e : *eps) turns += e.turns;
  return turns;
}

bool wait_until(const std::function<bool()>& done, double seconds) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// Two tiny tasks whose script writes files and submits: 10 turns per episode.
struct KillFixture {
  fs::path dir = make_temp_dir("pf_run_cli");
  fs::path run_dir = dir / "runs" / "kill-run";
  std::unique_ptr<SlowReplayServer> server;
  static constexpr int kTurns = 10;
  static constexpr int kEpisodes = 6;  // 2 tasks x 3 samples

  KillFixture() {
    write_tiny_task(dir, "add-relu-a");
    write_tiny_task(dir, "add-relu-b");
    std::vector<Json> responses;
    for (int i = 0; i < kTurns - 1; ++i) {
      responses.push_back(
          tool_call("write_file", {{"path", "kernels/k" + std::to_string(i) + ".cu"},
                                   {"content", "// part " + std::to_string(i)}}));
    }
    responses.push_back(tool_call("submit", Json::object()));
    server = std::make_unique<SlowReplayServer>(script_line("add-relu-a", "tools", responses) +
                                                    script_line("add-relu-b", "tools", responses),
                                                0.05);
  }
  ~KillFixture() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  std::vector<std::string> run_args() const {
    return {"run",
            "--set",
            "endpoint.base_url=" + server->base_url(),
            "--set",
            "endpoint.model=slow-replay",
            "--set",
            "run.tasks=[\"" + (dir / "tasks").string() + "\"]",
            "--set",
            "run.output_dir=" + (dir / "runs").string(),
            "--set",
            "run.run_id=kill-run",
            "--set",
            "run.samples_per_task=3",
            "--set",
            "run.concurrency=2",
            "--set",
            "evaluator.compile_only=true"};
  }

  // Every episode once, finished by submit, every turn once with its LLM call.
  void expect_complete() {
    auto r = traj::TrajectoryReader::open(run_dir);
    ASSERT_TRUE(r.ok()) << r.error().message;
    auto eps = r->episodes();
    ASSERT_TRUE(eps.ok());
    ASSERT_EQ(eps->size(), static_cast<size_t>(kEpisodes));
    for (const auto& e : *eps) {
      EXPECT_EQ(e.status, traj::RunState::finished) << e.id;
      EXPECT_EQ(e.exit_reason, "submitted") << e.id;
      EXPECT_EQ(e.turns, kTurns) << e.id;
      auto calls = r->llm_calls(e.id);
      ASSERT_TRUE(calls.ok());
      ASSERT_EQ(calls->size(), static_cast<size_t>(kTurns)) << e.id;
      for (int t = 0; t < kTurns; ++t) EXPECT_EQ((*calls)[t].turn, t + 1) << e.id;
      auto ms = r->messages(e.id);
      ASSERT_TRUE(ms.ok());
      ASSERT_EQ(ms->size(), static_cast<size_t>(2 + 2 * kTurns)) << e.id;
      for (size_t i = 0; i < ms->size(); ++i) EXPECT_EQ((*ms)[i].seq, static_cast<int64_t>(i));
      // The k-th assistant message is the k-th scripted answer.
      int k = 0;
      for (const auto& m : *ms) {
        if (m.role != traj::Role::assistant) continue;
        std::string name = m.tool_calls[0]["function"]["name"];
        EXPECT_EQ(name, k == kTurns - 1 ? "submit" : "write_file") << e.id << " answer " << k;
        ++k;
      }
    }
    auto runs = r->runs();
    ASSERT_TRUE(runs.ok());
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ((*runs)[0].status, traj::RunState::finished);
    auto integrity = r->check_integrity();
    EXPECT_TRUE(integrity.ok()) << integrity.error().message;
  }
};

TEST(RunCli, SigkillThenResumeCompletesWithoutDuplicates) {
  KillFixture f;
  Child c = spawn(f.run_args(), f.dir);
  ASSERT_TRUE(wait_until([&] { return committed_turns(f.run_dir) >= 12; }, 60)) << text(c.err);
  kill(c.pid, SIGKILL);
  EXPECT_EQ(wait_exit(c.pid), 128 + SIGKILL);
  int64_t before = committed_turns(f.run_dir);
  EXPECT_LT(before, KillFixture::kEpisodes * KillFixture::kTurns) << "killed mid-run";

  Child resumed = spawn(
      {"run", "--resume", f.run_dir.string(), "--set", "endpoint.base_url=" + f.server->base_url()},
      f.dir);
  EXPECT_EQ(wait_exit(resumed.pid), 0) << text(resumed.out) << text(resumed.err);
  EXPECT_NE(text(resumed.out).find("submitted 6"), std::string::npos) << text(resumed.out);
  f.expect_complete();

  // Resuming a finished run starts nothing and changes nothing.
  Child again = spawn(
      {"run", "--resume", f.run_dir.string(), "--set", "endpoint.base_url=" + f.server->base_url()},
      f.dir);
  EXPECT_EQ(wait_exit(again.pid), 0) << text(again.err);
  f.expect_complete();
}

// Three shards of one run, merged, are the unsharded run: the same episodes
// (ids, seeds), each once and complete. A shard started again continues itself.
TEST(RunCli, ShardsMergeToTheUnshardedRun) {
  KillFixture f;
  for (int k = 0; k < 3; ++k) {
    auto args = f.run_args();
    args.insert(args.end(), {"--shard", std::to_string(k) + "/3"});
    Child c = spawn(args, f.dir);
    EXPECT_EQ(wait_exit(c.pid), 0) << text(c.out) << text(c.err);
    EXPECT_NE(text(c.out).find("shard " + std::to_string(k) + " of 3 (--shard): 2 episodes"),
              std::string::npos)
        << text(c.out);
    EXPECT_TRUE(fs::exists(f.run_dir / ("shard-" + std::to_string(k) + "-of-3") / "passforge.db"));
  }
  auto again_args = f.run_args();
  again_args.insert(again_args.end(), {"--shard", "1/3"});
  Child again = spawn(again_args, f.dir);
  EXPECT_EQ(wait_exit(again.pid), 0) << text(again.err);
  EXPECT_NE(text(again.out).find("continuing this shard"), std::string::npos) << text(again.out);
  EXPECT_NE(text(again.out).find("nothing to resume"), std::string::npos) << text(again.out);

  std::vector<std::string> merge = {"merge", "--out", f.run_dir.string()};
  for (int k = 0; k < 3; ++k) {
    merge.push_back((f.run_dir / ("shard-" + std::to_string(k) + "-of-3")).string());
  }
  Child m = spawn(merge, f.dir);
  ASSERT_EQ(wait_exit(m.pid), 0) << text(m.out) << text(m.err);
  f.expect_complete();

  // The unsharded run of the same configuration.
  auto args = f.run_args();
  for (auto& a : args) {
    if (a == "run.output_dir=" + (f.dir / "runs").string()) a += "-whole";
  }
  Child whole = spawn(args, f.dir);
  ASSERT_EQ(wait_exit(whole.pid), 0) << text(whole.out) << text(whole.err);
  auto seeds = [](const fs::path& dir) {
    std::map<std::string, std::pair<int64_t, int64_t>> out;
    auto r = traj::TrajectoryReader::open(dir);
    EXPECT_TRUE(r.ok());
    if (!r.ok()) return out;
    for (const auto& e : r->episodes().value_or({})) out[e.id] = {e.seed, e.turns};
    return out;
  };
  auto merged = seeds(f.run_dir);
  EXPECT_EQ(merged.size(), static_cast<size_t>(KillFixture::kEpisodes));
  EXPECT_EQ(merged, seeds(f.dir / "runs-whole" / "kill-run"));
}

// Issue 17: the disk filling up mid-run ended with exit 1 and a loud SQLite
// error, but the run was marked finished, episodes were missing from the
// summary, store_error was not shown and no resume hint was printed. Here the
// store's files cannot grow past kFullAt bytes (SQLite sees a short write,
// SQLITE_FULL, then EFBIG, SQLITE_IOERR): the run must end with exit 1, list
// every episode (store_error where it applies), name the database, print the
// resume hint, not be marked finished, and resume to completion.
TEST(RunCli, StoreFullMidRunEndsHonestlyAndResumes) {
  // Past the empty store and its WAL (each migration adds pages to both);
  // raise it when a migration grows them, keep it below a whole run's size.
  constexpr rlim_t kFullAt = 224 << 10;
  KillFixture f;
  Child c = spawn(f.run_args(), f.dir, kFullAt);
  EXPECT_EQ(wait_exit(c.pid), 1) << text(c.out) << text(c.err);
  const std::string out = text(c.out), err = text(c.err);
  const std::string db = (f.run_dir / "passforge.db").string();
  EXPECT_NE(out.find("store_error"), std::string::npos) << out;
  EXPECT_NE(out.find("passforge run --resume " + f.run_dir.string()), std::string::npos) << out;
  EXPECT_NE(out.find(db), std::string::npos) << "the database path in the message\n" << out;
  std::smatch all;
  ASSERT_TRUE(std::regex_search(out, all, std::regex(R"(\nall +(\d+) )"))) << out;
  EXPECT_EQ(all[1], std::to_string(KillFixture::kEpisodes)) << "every episode listed\n" << out;
  for (const auto& line : split(err, '\n')) {
    if (line.find("sqlite") != std::string::npos) {
      EXPECT_NE(line.find(db), std::string::npos) << "a SQLite error without the path: " << line;
    }
  }
  {
    auto r = traj::TrajectoryReader::open(f.run_dir);
    ASSERT_TRUE(r.ok()) << r.error().message;
    auto runs = r->runs();
    ASSERT_TRUE(runs.ok());
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_NE((*runs)[0].status, traj::RunState::finished);
  }
  Child resumed = spawn(
      {"run", "--resume", f.run_dir.string(), "--set", "endpoint.base_url=" + f.server->base_url()},
      f.dir);
  EXPECT_EQ(wait_exit(resumed.pid), 0) << text(resumed.out) << text(resumed.err);
  f.expect_complete();
}

TEST(RunCli, SigintExits130WithEpisodesInterruptedAndResumable) {
  KillFixture f;
  Child c = spawn(f.run_args(), f.dir);
  ASSERT_TRUE(wait_until([&] { return committed_turns(f.run_dir) >= 6; }, 60)) << text(c.err);
  kill(c.pid, SIGINT);
  EXPECT_EQ(wait_exit(c.pid), 130) << text(c.out) << text(c.err);
  EXPECT_NE(text(c.out).find("--resume " + f.run_dir.string()), std::string::npos) << text(c.out);
  {
    auto r = traj::TrajectoryReader::open(f.run_dir);
    ASSERT_TRUE(r.ok());
    auto eps = r->episodes();
    ASSERT_TRUE(eps.ok());
    int interrupted = 0;
    for (const auto& e : *eps) {
      EXPECT_NE(e.status, traj::RunState::running) << e.id << ": nothing is left running";
      if (e.status == traj::RunState::interrupted) {
        ++interrupted;
        EXPECT_EQ(e.exit_reason, "interrupted");
      }
    }
    EXPECT_GE(interrupted, 1);
    EXPECT_EQ((*r->runs())[0].status, traj::RunState::interrupted);
  }
  Child resumed = spawn(
      {"run", "--resume", f.run_dir.string(), "--set", "endpoint.base_url=" + f.server->base_url()},
      f.dir);
  EXPECT_EQ(wait_exit(resumed.pid), 0) << text(resumed.out) << text(resumed.err);
  f.expect_complete();
}

// The README's main command exactly as written (only the output directory
// and run id moved to a temporary place): built-in tasks, built-in replay,
// real evaluations through the sandboxed workers, progress, summary, store;
// resuming the finished run changes nothing; --set on resume goes through
// the shared config loader.
TEST(RunCli, QuickstartAsWrittenRunsAndResumes) {
  fs::path dir = make_temp_dir("pf_run_quickstart");
  const fs::path run_dir = dir / "runs" / "qs";
  Child c = spawn({"run", "--config", "configs/quickstart.toml", "--set",
                   "run.output_dir=" + (dir / "runs").string(), "--set", "run.run_id=qs"},
                  dir);
  ASSERT_EQ(wait_exit(c.pid), 0) << text(c.out) << text(c.err);
  const std::string out = text(c.out), err = text(c.err);
  EXPECT_NE(out.find("REPLAYS RECORDED ANSWERS"), std::string::npos) << out;
  EXPECT_NE(out.find((run_dir / "passforge.db").string()), std::string::npos) << out;
  EXPECT_NE(out.find("all   "), std::string::npos) << "summary table\n" << out;
  // Compile-only without a GPU; on a GPU full, unless the workers cannot run
  // it yet (then the run says it fell back and records compile-only).
  const bool planned_compile_only = out.find("evaluation: COMPILE-ONLY") != std::string::npos;
  EXPECT_NE(planned_compile_only, out.find("evaluation: FULL on the GPU") != std::string::npos)
      << out;
  const bool compile_only =
      planned_compile_only || out.find("FELL BACK TO COMPILE-ONLY") != std::string::npos;
  // One progress line per episode (logged: stderr is not a terminal here).
  EXPECT_NE(err.find("episode [3/3] "), std::string::npos) << err;

  auto r = traj::TrajectoryReader::open(run_dir);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto eps = r->episodes();
  ASSERT_TRUE(eps.ok());
  ASSERT_EQ(eps->size(), 3u) << "quickstart's [run].tasks, one sample each";
  int64_t evaluations = 0;
  for (const auto& e : *eps) {
    EXPECT_EQ(e.exit_reason, "submitted") << e.id;
    auto evals = r->evaluations(e.id);
    ASSERT_TRUE(evals.ok());
    ASSERT_GE(evals->size(), 2u) << e.id;
    evaluations += static_cast<int64_t>(evals->size());
    EXPECT_FALSE(evals->front().failure_classes.empty()) << e.id << ": the wrong first attempt";
    EXPECT_EQ(evals->back().failure_classes, Json::array())
        << e.id << ": " << evals->back().result.dump().substr(0, 2000);
    for (const auto& ev : *evals) {
      if (ev.kind == traj::EvalKind::compile || compile_only) {
        EXPECT_EQ(ev.mode, traj::EvalMode::compile_only) << e.id;
      } else {
        EXPECT_EQ(ev.mode, traj::EvalMode::full) << e.id;
      }
    }
  }

  // --resume: bad keys are reported like a new run's, --config is refused,
  // a finished run resumes to nothing.
  Child bad = spawn({"run", "--resume", run_dir.string(), "--set", "agent.max_step=3"}, dir);
  EXPECT_EQ(wait_exit(bad.pid), 2);
  EXPECT_NE(text(bad.err).find("did you mean 'agent.max_steps'"), std::string::npos)
      << text(bad.err);
  Child both =
      spawn({"run", "--resume", run_dir.string(), "--config", "configs/quickstart.toml"}, dir);
  EXPECT_EQ(wait_exit(both.pid), 2);
  Child again = spawn({"run", "--resume", run_dir.string(), "--set", "agent.max_steps=5"}, dir);
  EXPECT_EQ(wait_exit(again.pid), 0) << text(again.err);
  EXPECT_NE(text(again.out).find("nothing to resume"), std::string::npos) << text(again.out);
  auto after = traj::TrajectoryReader::open(run_dir);
  ASSERT_TRUE(after.ok());
  auto eps_after = after->episodes();
  ASSERT_TRUE(eps_after.ok());
  EXPECT_EQ(eps_after->size(), 3u);
  int64_t evaluations_after = 0;
  for (const auto& e : *eps_after) {
    auto evals = after->evaluations(e.id);
    ASSERT_TRUE(evals.ok());
    evaluations_after += static_cast<int64_t>(evals->size());
  }
  EXPECT_EQ(evaluations_after, evaluations);
  std::error_code ec;
  fs::remove_all(dir, ec);
}

// The README's main command: no endpoint, so the built-in demo replay; real
// compile-only evaluations of the reference passes through the workers.
TEST(RunCli, BuiltInDemoRunsEndToEndInBothModes) {
  fs::path dir = make_temp_dir("pf_run_demo");
  const std::vector<std::string> ids = {"neg-cat-mul-add-6a5c9e", "add-softmax-dropout-a73f2b"};
  for (const auto& id : ids) {
    fs::path src = pf::test::graphnet_slices_dir() / id;
    auto imported = import_tasks(src, ImportOptions{.hidden_share = 0.2}, OpRegistry::builtin());
    ASSERT_TRUE(imported.ok() && imported->size() == 1 && (*imported)[0].task);
    fs::create_directories(dir / "tasks");
    ASSERT_TRUE(save_task_file(*(*imported)[0].task, dir / "tasks" / (id + ".json")).ok());
  }
  for (const char* mode : {"tools", "chat"}) {
    Child c = spawn({"run", "--config", "configs/quickstart.toml", "--set",
                     "run.tasks=[\"" + (dir / "tasks").string() + "\"]", "--set",
                     "run.output_dir=" + (dir / "runs").string(), "--set",
                     std::string("run.run_id=demo-") + mode, "--set",
                     std::string("agent.mode=") + mode, "--set", "evaluator.compile_only=true"},
                    dir);
    int code = wait_exit(c.pid);
    std::string out = text(c.out);
    ASSERT_EQ(code, 0) << out << text(c.err);
    EXPECT_NE(out.find("REPLAYS RECORDED ANSWERS"), std::string::npos) << out;
    EXPECT_NE(out.find("COMPILE-ONLY"), std::string::npos) << out;
    EXPECT_NE(out.find("passforge.db"), std::string::npos) << out;

    auto r = traj::TrajectoryReader::open(dir / "runs" / (std::string("demo-") + mode));
    ASSERT_TRUE(r.ok());
    auto eps = r->episodes();
    ASSERT_TRUE(eps.ok());
    ASSERT_EQ(eps->size(), ids.size());
    for (const auto& e : *eps) {
      EXPECT_EQ(e.exit_reason, "submitted") << e.id;
      auto evals = r->evaluations(e.id);
      ASSERT_TRUE(evals.ok());
      ASSERT_FALSE(evals->empty());
      // The wrong first attempt fails (tools: a kernel typo; chat: the kernel file is
      // missing), the corrected pass passes every check.
      if (std::string(mode) == "tools") {
        EXPECT_EQ(evals->front().failure_classes, Json::array({"compile_fail"})) << e.id;
      } else {
        EXPECT_FALSE(evals->front().failure_classes.empty()) << e.id;
      }
      EXPECT_EQ(evals->back().failure_classes, Json::array()) << e.id;
      for (const auto& ev : *evals) EXPECT_EQ(ev.mode, traj::EvalMode::compile_only);
      EXPECT_EQ(evals->back().result["ok"], true) << evals->back().result.dump().substr(0, 2000);
      if (std::string(mode) == "tools") {
        EXPECT_EQ(e.turns, 7);
        EXPECT_EQ(evals->size(), 4u) << "compile, compile, evaluate, submit";
        EXPECT_EQ(evals->back().kind, traj::EvalKind::submit);
      } else {
        EXPECT_EQ(e.turns, 3);
        EXPECT_EQ(evals->size(), 2u);
      }
    }
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace
}  // namespace pf::testing
