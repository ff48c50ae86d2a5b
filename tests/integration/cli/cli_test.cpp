// The passforge command line as a user meets it: a real subprocess of
// build/passforge, its output and its exit codes (README.md "Exit codes").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "common/fs.h"
#include "tests/integration/cli/run_process.h"

namespace pf {
namespace {

using testing_util::run_passforge;

const std::vector<std::string> commands = {"run",   "eval", "import",  "tasks", "export",
                                           "stats", "ab",   "improve", "serve", "doctor"};

TEST(Cli, HelpListsEveryCommand) {
  auto r = run_passforge({"--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const auto& c : commands)
    EXPECT_NE(r.out.find("  " + c), std::string::npos) << c << "\n" << r.out;
}

TEST(Cli, EveryCommandHasHelp) {
  for (const auto& c : commands) {
    auto r = run_passforge({c, "--help"});
    EXPECT_EQ(r.exit_code, 0) << c << ": " << r.err;
    EXPECT_NE(r.out.find(c), std::string::npos) << c << ":\n" << r.out;
  }
}

TEST(Cli, UnknownCommandIsAUsageError) {
  auto r = run_passforge({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
}

// tasks check --shard K/N: CI checks a quarter of the suite this way.
TEST(Cli, TasksCheckShardChecksEveryNthTask) {
  auto last = run_passforge({"tasks", "check", "tasks", "--shard", "198/199", "--jobs", "1"});
  EXPECT_EQ(last.exit_code, 0) << last.out << last.err;
  EXPECT_NE(last.out.find(" in 1 tasks; "), std::string::npos) << last.out;
  EXPECT_NE(last.out.find("view-roll-getitem-contiguous-view-add-15afbb / "), std::string::npos)
      << last.out;
  auto bad = run_passforge({"tasks", "check", "tasks", "--shard", "199/199"});
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("need 0 <= K < N"), std::string::npos) << bad.err;
}

TEST(Cli, NoCommandIsAUsageError) {
  auto r = run_passforge({});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
}

TEST(CliDoctor, JsonHasEveryGroup) {
  auto r = run_passforge({"doctor", "--json", "--config", "configs/quickstart.toml"});
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.exit_code << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  for (const char* key : {"ok", "problems", "checks", "passforge", "config", "cuda", "nvrtc",
                          "isolation", "compile_cache", "endpoint", "mode"}) {
    EXPECT_TRUE(j.contains(key)) << key << "\n" << j.dump(2);
  }
  EXPECT_EQ(j["ok"].get<bool>(), r.exit_code == 0);
  EXPECT_EQ(j["ok"].get<bool>(), j["problems"].empty());
  EXPECT_EQ(j["config"]["file"], "configs/quickstart.toml");
  EXPECT_EQ(j["config"]["values"]["agent"]["max_steps"], 20);
  EXPECT_EQ(j["config"]["sources"]["agent.max_steps"], "configs/quickstart.toml:46");
  // The quickstart config has no endpoint: doctor says the replay endpoint will be used.
  EXPECT_EQ(j["endpoint"]["configured"], false);
  bool says_replay = false;
  for (const auto& c : j["checks"]) {
    if (c["group"] == "endpoint")
      says_replay |= c["detail"].get<std::string>().find("replay") != std::string::npos;
  }
  EXPECT_TRUE(says_replay) << j["checks"].dump(2);
}

// Doctor says how a run caps each worker's memory and why (issue 17).
TEST(CliDoctor, SaysHowWorkerMemoryIsCapped) {
  auto r = run_passforge({"doctor", "--json", "--set", "evaluator.worker_memory_mb=300"});
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out << r.err;
  const auto& facts = j["isolation"]["worker_memory"];
  EXPECT_EQ(facts["limit_mb"], 300) << facts.dump(2);
  EXPECT_FALSE(facts["reason"].get<std::string>().empty()) << facts.dump(2);
  std::string detail;
  for (const auto& c : j["checks"]) {
    if (c["group"] == "isolation" && c["name"] == "worker_memory") detail = c["detail"];
  }
  EXPECT_NE(detail.find("300 MiB (evaluator.worker_memory_mb)"), std::string::npos) << detail;
  const std::string mechanism = facts["cgroup"].get<bool>() ? "memory.max" : "RLIMIT_DATA";
  EXPECT_NE(detail.find(mechanism), std::string::npos) << detail;
  EXPECT_NE(detail.find(facts["reason"].get<std::string>()), std::string::npos) << detail;
}

TEST(CliDoctor, ReportsNoGpuWhenThereIsNone) {
  auto r = run_passforge({"doctor", "--json"});
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out << r.err;
  ASSERT_TRUE(j["cuda"].contains("gpus")) << j["cuda"].dump(2);
  if (!j["cuda"]["gpus"].empty()) GTEST_SKIP() << "this machine has a GPU";
  EXPECT_EQ(j["mode"]["mode"], "compile_only");
  bool says_no_gpu = false;
  for (const auto& c : j["checks"]) {
    if (c["group"] == "cuda")
      says_no_gpu |= c["detail"].get<std::string>().find("no GPU") != std::string::npos;
  }
  EXPECT_TRUE(says_no_gpu) << j["checks"].dump(2);
}

TEST(CliDoctor, TextShowsSourcesOfEffectiveValues) {
  auto r = run_passforge(
      {"doctor", "--config", "configs/passbench-eval.toml", "--set", "agent.mode=chat"});
  EXPECT_NE(r.out.find("agent.max_steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("50  (configs/passbench-eval.toml:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"chat\"  (--set)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("doctor: "), std::string::npos) << r.out;
}

TEST(CliDoctor, UnreachableEndpointFailsWithTheReason) {
  auto r = run_passforge({"doctor", "--json", "--set", "endpoint.base_url=http://127.0.0.1:9/v1",
                          "--set", "endpoint.model=m", "--endpoint-timeout", "2"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_FALSE(j["ok"].get<bool>());
  bool endpoint_problem = false;
  for (const auto& p : j["problems"])
    endpoint_problem |= p.get<std::string>().starts_with("endpoint/");
  EXPECT_TRUE(endpoint_problem) << j["problems"].dump(2);
}

// The positive path against a live endpoint: passforge's own replay server.
TEST(CliDoctor, AnsweringEndpointPasses) {
  auto script = std::filesystem::temp_directory_path() /
                ("pf_cli_replay_" + std::to_string(::getpid()) + ".jsonl");
  ASSERT_TRUE(write_file_atomic(script,
                                R"({"task": "t", "mode": "chat", "responses": [{"content": "hi"}]})"
                                "\n")
                  .ok());
  testing_util::BackgroundPassforge server(
      {"serve-replay", "--script", script.string(), "--port", "0", "--model", "replay-model"});
  std::smatch m;
  std::string line = server.read_line();
  ASSERT_TRUE(std::regex_search(line, m, std::regex(R"((http://[0-9.:]+/v1))"))) << line;
  auto r = run_passforge({"doctor", "--json", "--set", "endpoint.base_url=" + m[1].str(), "--set",
                          "endpoint.model=replay-model"});
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out << r.err;
  EXPECT_EQ(j["endpoint"]["answers"], true) << j["endpoint"].dump(2);
  EXPECT_EQ(j["endpoint"]["model_listed"], true) << j["endpoint"].dump(2);
  for (const auto& p : j["problems"])
    EXPECT_FALSE(p.get<std::string>().starts_with("endpoint/")) << p;
  std::filesystem::remove(script);
}

TEST(CliConfig, ConfigErrorsNameFileAndLineAndExit2) {
  auto path = std::filesystem::temp_directory_path() /
              ("pf_cli_bad_" + std::to_string(::getpid()) + ".toml");
  ASSERT_TRUE(write_file_atomic(path, "[agent]\nmax_setps = 3\n[evaluator]\ntrials = -1\n").ok());
  auto r = run_passforge({"doctor", "--config", path.string()});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(path.string() + ":2: unknown key 'max_setps' in [agent] (did you mean "
                                       "'max_steps'?)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(
      r.err.find(path.string() + ":4: evaluator.trials: must be between 1 and 1000000, got -1"),
      std::string::npos)
      << r.err;
  std::filesystem::remove(path);
}

TEST(CliConfig, SetErrorsExit2) {
  auto r = run_passforge({"doctor", "--set", "agent.max_steps=zero"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("agent.max_steps: expected an integer"), std::string::npos) << r.err;
}

TEST(CliConfig, MissingConfigFileExit2) {
  auto r = run_passforge({"doctor", "--config", "configs/does-not-exist.toml"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("configs/does-not-exist.toml"), std::string::npos) << r.err;
}

TEST(CliConfig, KeyReferenceMatchesTheCommittedOne) {
  auto r = run_passforge({"doctor", "--config-keys"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, read_file(PF_SOURCE_DIR "/configs/README.md").value());
}

}  // namespace
}  // namespace pf
