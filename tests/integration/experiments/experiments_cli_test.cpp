// `passforge ab` and `passforge improve` as users run them: the real binary
// against `passforge serve-replay` (a real process on a loopback socket)
// with real workers and stores. Evaluation is forced compile-only so the
// suite takes seconds on any machine (and says so in its reports).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/integration/agent/slow_replay_server.h"
#include "trajectories/trajectory_reader.h"

namespace pf::experiments {
namespace {

namespace fs = std::filesystem;
const std::string kPassforge = std::string(PF_BINARY_DIR) + "/passforge";
const std::string kScript = std::string(PF_SOURCE_DIR) + "/tests/data/improve-replay.jsonl";

struct Output {
  int code = -1;
  std::string out, err;
};

// Runs passforge to its end; stdout and stderr to files, read back.
Output run_passforge(const std::vector<std::string>& args, const fs::path& dir) {
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  std::string cmd = kPassforge;
  for (const auto& a : args) cmd += " '" + a + "'";
  cmd += " > '" + out.string() + "' 2> '" + err.string() + "'";
  int status = std::system(cmd.c_str());
  Output o;
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  auto slurp = [](const fs::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  o.out = slurp(out);
  o.err = slurp(err);
  return o;
}

// Starts passforge in the background (stdout/stderr to files in `dir`).
pid_t spawn_passforge(const std::vector<std::string>& args, const fs::path& dir) {
  std::vector<std::string> all = {kPassforge};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string out = (dir / "bg.stdout").string(), err = (dir / "bg.stderr").string();
  pid_t pid = fork();
  if (pid == 0) {
    (void)!freopen(out.c_str(), "w", stdout);
    (void)!freopen(err.c_str(), "w", stderr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Finished episodes in a store (0 while it does not exist yet).
// The finished episodes of the store in `dir` (none while it does not exist).
std::vector<traj::EpisodeRecord> finished_in(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir / "passforge.db", ec)) return {};
  auto reader = traj::TrajectoryReader::open(dir);
  if (!reader.ok()) return {};
  traj::EpisodeFilter f;
  f.status = traj::RunState::finished;
  auto episodes = reader->episodes(f);
  return episodes.ok() ? std::move(*episodes) : std::vector<traj::EpisodeRecord>{};
}

size_t finished_episodes(const fs::path& dir) {
  return finished_in(dir).size();
}

bool wait_for(const std::function<bool()>& condition, double seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// `passforge serve-replay --port 0` for the test's lifetime.
class ReplayProcess {
 public:
  ReplayProcess() {
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], 1);
      close(fds[0]);
      execl(kPassforge.c_str(), kPassforge.c_str(), "serve-replay", "--script", kScript.c_str(),
            "--port", "0", "--model", "base", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    std::string line;
    char ch;
    while (read(fds[0], &ch, 1) == 1 && ch != '\n') line.push_back(ch);
    close(fds[0]);
    auto at = line.find("http://");
    EXPECT_NE(at, std::string::npos) << line;
    if (at != std::string::npos) url_ = line.substr(at, line.find_first_of(" )", at) - at);
  }
  ~ReplayProcess() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  const std::string& url() const { return url_; }

 private:
  pid_t pid_ = -1;
  std::string url_;
};

class ExperimentsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kPassforge)) << kPassforge;
    dir_ = fs::temp_directory_path() /
           ("pf-experiments-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "base.toml") << "[endpoint]\nbase_url = \"" << replay_.url()
                                      << "\"\nmodel = \"base\"\napi_key_env = \"PF_NO_KEY\"\n"
                                      << "[evaluator]\ncompile_only = true\n"
                                      << "nvrtc_cache_dir = \"" << (dir_ / "nvrtc").string()
                                      << "\"\n[run]\noutput_dir = \"" << dir_.string() << "\"\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // base.toml pointing at a deliberately slow replay endpoint instead.
  void use_endpoint(const std::string& url) {
    std::string text = slurp(dir_ / "base.toml");
    text.replace(text.find(replay_.url()), replay_.url().size(), url);
    std::ofstream(dir_ / "base.toml") << text;
  }

  fs::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }

  ReplayProcess replay_;
  fs::path dir_;
};

TEST_F(ExperimentsCli, AbComparesTwoPromptVariantsInterleaved) {
  auto file = write("ab.toml", R"(base_config = "base.toml"
id = "ab-test"
tasks = ["neg-cat-mul-add-6a5c9e", "pow-mean-add-rsqrt-mul-ae9e8f", "add-softmax-dropout-a73f2b"]
samples_per_task = 2
[set]
"run.concurrency" = 1
"endpoint.model" = "tuned"
[[arms]]
name = "default"
set = { "prompts.variant" = "default" }
[[arms]]
name = "concise"
set = { "prompts.variant" = "concise" }
)");
  auto r = run_passforge(
      {"ab", "--config", file.string(), "--json", "--svg", (dir_ / "ab.svg").string()}, dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["mode"], "compile_only");
  EXPECT_EQ(report["score"], "compile share");
  ASSERT_EQ(report["arms"].size(), 2u);
  EXPECT_EQ(report["arms"][0]["prompt_variant"], "default");
  EXPECT_EQ(report["arms"][1]["prompt_variant"], "concise");
  for (const auto& arm : report["arms"]) {
    EXPECT_EQ(arm["episodes"], 6);
    EXPECT_DOUBLE_EQ(arm["mean_score"].get<double>(), 1.0);  // the "tuned" answers compile
    EXPECT_GT(arm["tokens_per_episode"].get<double>(), 0);
  }
  // The concise prompt is shorter, so its episodes use fewer tokens.
  EXPECT_LT(report["arms"][1]["tokens_per_episode"].get<double>(),
            report["arms"][0]["tokens_per_episode"].get<double>());
  ASSERT_EQ(report["comparisons"].size(), 1u);
  const auto& c = report["comparisons"][0];
  EXPECT_EQ(c["tasks"], 3);
  EXPECT_EQ(c["verdict"].get<std::string>().rfind(
                "no detectable difference between concise and default on compile share with 3 "
                "tasks",
                0),
            0u)
      << c["verdict"];
  std::ifstream svg(dir_ / "ab.svg");
  std::string chart((std::istreambuf_iterator<char>(svg)), {});
  EXPECT_NE(chart.find("<svg"), std::string::npos);
  EXPECT_NE(chart.find("concise"), std::string::npos);

  // Interleaved: with one episode at a time, starts alternate between the arms.
  auto reader = traj::TrajectoryReader::open(dir_ / "ab-test");
  ASSERT_TRUE(reader.ok()) << reader.error().message;
  auto episodes = reader->episodes();
  ASSERT_TRUE(episodes.ok());
  ASSERT_EQ(episodes->size(), 12u);
  std::sort(episodes->begin(), episodes->end(),
            [](const auto& a, const auto& b) { return a.started_at < b.started_at; });
  for (size_t i = 0; i < episodes->size(); ++i) {
    EXPECT_EQ((*episodes)[i].run_id, i % 2 == 0 ? "ab-test.default" : "ab-test.concise") << i;
    EXPECT_EQ((*episodes)[i].seed, (*episodes)[i - i % 2].seed);  // same seed in both arms
  }

  // Resuming a finished experiment runs nothing and reports the same.
  auto again = run_passforge({"ab", "--resume", (dir_ / "ab-test").string(), "--json"}, dir_);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["comparisons"], report["comparisons"]);
  EXPECT_EQ(reader->episodes()->size(), 12u);
  // A second experiment with the same id is refused.
  auto twice = run_passforge({"ab", "--config", file.string()}, dir_);
  EXPECT_EQ(twice.code, 2);
  EXPECT_NE(twice.err.find("already exists"), std::string::npos) << twice.err;
}

TEST_F(ExperimentsCli, UsageErrorsNameTheMissingArgument) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const Case cases[] = {
      {{"ab"}, "passforge ab: give --config EXPERIMENT.toml (a new experiment) or --resume DIR"},
      {{"improve", "--config", "a.toml", "--resume", "d"},
       "passforge improve: give --config IMPROVE.toml (a new loop) or --resume DIR"},
      {{"ab", "--config", "a.toml", "--report-only"},
       "passforge ab: --report-only reads a stored experiment: use --resume DIR"},
      {{"improve", "--resume", (dir_ / "none").string(), "--report-only"}, "passforge improve: "},
      {{"ab", "--config", (dir_ / "missing.toml").string()}, "passforge ab: "},
  };
  for (const auto& c : cases) {
    auto r = run_passforge(c.args, dir_);
    EXPECT_EQ(r.code, 2) << c.args[0] << " " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(ExperimentsCli, ImproveRoundsImproveAndResumeAtTheFailedStep) {
  // The training command fails once (a crashed trainer), then names the tuned model.
  const fs::path marker = dir_ / "trained-once";
  auto file = write(
      "improve.toml",
      R"(base_config = "base.toml"
id = "loop"
rounds = 3
train_tasks = ["neg-cat-mul-add-6a5c9e", "pow-mean-add-rsqrt-mul-ae9e8f"]
eval_tasks = ["add-softmax-dropout-a73f2b", "linear-mul-truediv-erf-add-mul-2eaa9f"]
samples_per_task = 2
[set]
"run.concurrency" = 4
[training]
command = "test -f )" +
          marker.string() + R"( || { touch )" + marker.string() +
          R"(; echo trainer crashed; exit 3; }; echo round {round} data {dataset}; echo '{\"model\": \"tuned\"}'"
)");
  auto first = run_passforge({"improve", "--config", file.string()}, dir_);
  EXPECT_EQ(first.code, 1) << first.out << first.err;
  EXPECT_NE(first.err.find("round 1 training: the training command failed (exit status 3)"),
            std::string::npos)
      << first.err;
  const fs::path loop = dir_ / "loop";
  auto train1 = traj::TrajectoryReader::open(loop / "rounds/1/train");
  ASSERT_TRUE(train1.ok());
  auto before = train1->episodes();
  ASSERT_TRUE(before.ok());
  EXPECT_EQ(before->size(), 4u);

  auto second = run_passforge(
      {"improve", "--resume", loop.string(), "--svg", (dir_ / "improve.svg").string()}, dir_);
  ASSERT_EQ(second.code, 0) << second.out << second.err;
  for (const char* step : {"train", "eval", "select", "export"}) {
    EXPECT_NE(second.out.find(std::string("round 1: ") + step + ": done earlier, skipped"),
              std::string::npos)
        << step << "\n"
        << second.out;
  }
  EXPECT_EQ(train1->episodes()->size(), 4u);  // not run again
  EXPECT_EQ((*train1->episodes())[0].started_at, (*before)[0].started_at);
  EXPECT_NE(second.out.find("improve loop loop: 3 of 3 rounds"), std::string::npos) << second.out;

  auto json =
      run_passforge({"improve", "--resume", loop.string(), "--report-only", "--json"}, dir_);
  ASSERT_EQ(json.code, 0) << json.err;
  auto report = nlohmann::json::parse(json.out);
  EXPECT_EQ(report["mode"], "compile_only");
  const auto& rounds = report["rounds"];
  ASSERT_EQ(rounds.size(), 3u);
  // Round 1 asks "base" (its passes do not compile); training names "tuned".
  EXPECT_EQ(rounds[0]["model"], "base");
  EXPECT_DOUBLE_EQ(rounds[0]["eval"]["mean_score"].get<double>(), 0.0);
  EXPECT_EQ(rounds[0]["selected"], 0);
  EXPECT_EQ(rounds[1]["model"], "tuned");
  EXPECT_DOUBLE_EQ(rounds[1]["eval"]["mean_score"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(rounds[1]["eval"]["correct_rate"].get<double>(), 1.0);
  EXPECT_EQ(rounds[1]["selected"], 2);  // best per training task
  EXPECT_EQ(rounds[2]["exemplars"], 2);
  EXPECT_EQ(rounds[2]["done"].size(), 5u);
  EXPECT_TRUE(fs::exists(loop / "rounds/1/sft.jsonl"));
  EXPECT_TRUE(fs::exists(loop / "rounds/2/dpo.jsonl"));
  EXPECT_TRUE(fs::exists(loop / "rounds/1/training.log"));
  EXPECT_TRUE(fs::exists(dir_ / "improve.svg"));

  // Round 3's held-out prompts carry the exemplars of round 2's training tasks.
  auto eval3 = traj::TrajectoryReader::open(loop / "rounds/3/eval");
  ASSERT_TRUE(eval3.ok());
  auto episodes = eval3->episodes();
  ASSERT_TRUE(episodes.ok());
  ASSERT_FALSE(episodes->empty());
  auto messages = eval3->messages(episodes->front().id);
  ASSERT_TRUE(messages.ok());
  ASSERT_GE(messages->size(), 2u);
  EXPECT_NE((*messages)[1].content.find("## Solved examples of similar tasks"), std::string::npos);
  auto eval1 = traj::TrajectoryReader::open(loop / "rounds/1/eval");
  auto first_messages = eval1->messages(eval1->episodes()->front().id);
  EXPECT_EQ((*first_messages)[1].content.find("Solved examples"), std::string::npos);
  // Held-out episodes use the same seeds every round.
  EXPECT_EQ(eval1->episodes()->front().seed, episodes->front().seed);
}

TEST_F(ExperimentsCli, AbInterruptedBySigintResumesWithoutRepeatingEpisodes) {
  pf::testing::SlowReplayServer slow(slurp(kScript), 0.05);
  use_endpoint(slow.base_url());
  auto file = write("ab.toml", R"(base_config = "base.toml"
id = "ab-int"
tasks = ["neg-cat-mul-add-6a5c9e", "pow-mean-add-rsqrt-mul-ae9e8f"]
samples_per_task = 2
[set]
"run.concurrency" = 2
[[arms]]
name = "A"
set = { "endpoint.model" = "base" }
[[arms]]
name = "B"
set = { "endpoint.model" = "tuned" }
)");
  const fs::path exp = dir_ / "ab-int";
  pid_t pid = spawn_passforge({"ab", "--config", file.string()}, dir_);
  ASSERT_TRUE(wait_for([&] { return finished_episodes(exp) >= 2; }, 60));
  kill(pid, SIGINT);
  EXPECT_EQ(wait_exit(pid), 130) << slurp(dir_ / "bg.stderr");
  EXPECT_NE(slurp(dir_ / "bg.stdout").find("passforge ab --resume " + exp.string()),
            std::string::npos);
  auto reader = traj::TrajectoryReader::open(exp);
  ASSERT_TRUE(reader.ok());
  const auto before = finished_in(exp);
  ASSERT_LT(before.size(), 8u);

  auto resumed = run_passforge({"ab", "--resume", exp.string(), "--json"}, dir_);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  auto all = reader->episodes();
  ASSERT_EQ(all->size(), 8u);  // 2 arms x 2 tasks x 2 samples, none twice
  for (const auto& e : *all) EXPECT_EQ(e.status, traj::RunState::finished) << e.id;
  for (const auto& e : before) {
    EXPECT_EQ(reader->episode(e.id)->finished_at, e.finished_at) << "re-run: " << e.id;
  }
  // "tuned" compiles every task, "base" none: B is better on every task, but
  // two tasks cannot make that significant.
  auto report = nlohmann::json::parse(resumed.out);
  EXPECT_DOUBLE_EQ(report["arms"][0]["mean_score"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(report["arms"][1]["mean_score"].get<double>(), 1.0);
  const auto& c = report["comparisons"][0];
  EXPECT_EQ(c["sign_test"]["positive"], 2);
  EXPECT_EQ(c["verdict"].get<std::string>().rfind("no detectable difference between B and A", 0),
            0u)
      << c["verdict"];
  EXPECT_NE(c["verdict"].get<std::string>().find("at least 6 tasks would be needed"),
            std::string::npos)
      << c["verdict"];
}

TEST_F(ExperimentsCli, ImproveKilledMidRoundContinuesWhereItStopped) {
  pf::testing::SlowReplayServer slow(slurp(kScript), 0.05);
  use_endpoint(slow.base_url());
  auto file = write("improve.toml", R"(base_config = "base.toml"
id = "killed"
rounds = 1
train_tasks = ["neg-cat-mul-add-6a5c9e", "pow-mean-add-rsqrt-mul-ae9e8f"]
eval_tasks = ["add-softmax-dropout-a73f2b"]
samples_per_task = 2
[set]
"run.concurrency" = 2
"endpoint.model" = "tuned"
)");
  const fs::path loop = dir_ / "killed";
  pid_t pid = spawn_passforge({"improve", "--config", file.string()}, dir_);
  ASSERT_TRUE(wait_for([&] { return finished_episodes(loop / "rounds/1/train") >= 1; }, 60));
  kill(pid, SIGKILL);
  wait_exit(pid);
  auto reader = traj::TrajectoryReader::open(loop / "rounds/1/train");
  ASSERT_TRUE(reader.ok());
  const auto before = finished_in(loop / "rounds/1/train");
  ASSERT_GE(before.size(), 1u);

  auto resumed = run_passforge({"improve", "--resume", loop.string(), "--json"}, dir_);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  auto all = reader->episodes();
  ASSERT_EQ(all->size(), 4u);
  for (const auto& e : before) {
    EXPECT_EQ(reader->episode(e.id)->finished_at, e.finished_at) << "re-run: " << e.id;
  }
  auto report = nlohmann::json::parse(resumed.out);
  ASSERT_EQ(report["rounds"].size(), 1u);
  EXPECT_EQ(report["rounds"][0]["done"].size(), 5u);
  EXPECT_EQ(report["rounds"][0]["train"]["episodes"], 4);
  EXPECT_DOUBLE_EQ(report["rounds"][0]["eval"]["mean_score"].get<double>(), 1.0);
}

}  // namespace
}  // namespace pf::experiments
