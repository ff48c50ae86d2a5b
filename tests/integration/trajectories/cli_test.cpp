// The export, stats and merge commands as a user runs them: the real
// passforge binary on a constructed run directory.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "common/fs.h"
#include "store_fixture.h"

namespace pf::traj {
namespace {

struct Output {
  int rc = -1;
  std::string out;
};

Output passforge(const std::string& args) {
  std::string cmd = std::string(PF_PASSFORGE) + " " + args + " 2>&1";
  Output o;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return o;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) o.out.append(buf, n);
  int status = ::pclose(p);
  o.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return o;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    run_dir_ = dir_.path() / "runs" / "r1";
    auto s = TrajectoryStore::open(run_dir_, TrajectoryStore::OpenMode::create);
    ASSERT_TRUE(s.ok());
    const std::string run = "20250101T000000Z-0000c0de";
    ASSERT_TRUE((*s)->create_run(testing::make_run(run)).ok());
    ASSERT_TRUE((*s)->upsert_task(testing::make_task("a")).ok());
    for (int i = 0; i < 3; ++i) {
      testing::EpisodeSpec spec{run, "a", i};
      testing::TurnSpec t;
      t.assistant = "answer " + std::to_string(i);
      t.result = testing::make_result(
          0.5 + i,
          {{"v0", false, true, 0.5 + i}, {"v1", false, true, 0.5 + i}, {"v2", true, true}});
      t.kind = EvalKind::submit;
      t.workspace = {{"passes/P.py", "pass " + std::to_string(i)}};
      spec.turns = {t};
      testing::write_episode(**s, spec);
    }
  }
  testing::TempDir dir_;
  std::filesystem::path run_dir_;
};

TEST_F(CliTest, ExportWritesRecordsAndReportsFilters) {
  auto out = dir_.path() / "sft.jsonl";
  auto r =
      passforge("export " + run_dir_.string() + " --format trl --min-as 1.0 --out " + out.string());
  ASSERT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("2 records from 3 episodes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("min_as: 1"), std::string::npos) << r.out;
  std::ifstream in(out);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    EXPECT_FALSE(Json::parse(line, nullptr, false).is_discarded());
    ++lines;
  }
  EXPECT_EQ(lines, 2);

  auto bad = passforge("export " + run_dir_.string() + " --format alpaca --out " + out.string());
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.out.find("unknown export format 'alpaca'"), std::string::npos) << bad.out;
  auto missing = passforge("export " + (dir_.path() / "nope").string() + " --out " + out.string());
  EXPECT_EQ(missing.rc, 2);
  EXPECT_NE(missing.out.find("no trajectory store"), std::string::npos) << missing.out;
}

// Issue 16: `--out /dev/null` replaced the system's /dev/null with a regular
// file, and an unwritable --out gave exit 1 without a reason.
TEST_F(CliTest, ExportAndStatsRefuseDevicesDirectoriesAndNameWriteErrors) {
  struct stat before {};
  ASSERT_EQ(::stat("/dev/null", &before), 0);
  ASSERT_TRUE(S_ISCHR(before.st_mode));
  auto dev = passforge("export " + run_dir_.string() + " --out /dev/null");
  EXPECT_EQ(dev.rc, 2) << dev.out;
  EXPECT_NE(dev.out.find("/dev/null is a character device"), std::string::npos) << dev.out;
  struct stat after {};
  ASSERT_EQ(::stat("/dev/null", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode)) << "/dev/null was replaced";
  EXPECT_EQ(after.st_rdev, before.st_rdev);

  auto link = dir_.path() / "null-link.jsonl";
  std::filesystem::create_symlink("/dev/null", link);
  auto via_link = passforge("export " + run_dir_.string() + " --out " + link.string());
  EXPECT_EQ(via_link.rc, 2) << via_link.out;
  EXPECT_NE(via_link.out.find("character device"), std::string::npos) << via_link.out;
  EXPECT_TRUE(std::filesystem::is_symlink(link));

  auto dir = dir_.path() / "a-directory";
  std::filesystem::create_directories(dir);
  auto to_dir = passforge("export " + run_dir_.string() + " --out " + dir.string());
  EXPECT_EQ(to_dir.rc, 2) << to_dir.out;
  EXPECT_NE(to_dir.out.find("is a directory"), std::string::npos) << to_dir.out;
  EXPECT_TRUE(std::filesystem::is_directory(dir));

  auto svg = passforge("stats " + run_dir_.string() + " --svg /dev/null");
  EXPECT_EQ(svg.rc, 2) << svg.out;
  EXPECT_NE(svg.out.find("/dev/null is a character device"), std::string::npos) << svg.out;

  // A symlink to a regular file: the target is replaced, the link stays.
  auto target = dir_.path() / "target.jsonl";
  ASSERT_TRUE(write_file_atomic(target, "old\n").ok());
  auto good_link = dir_.path() / "good-link.jsonl";
  std::filesystem::create_symlink(target, good_link);
  auto ok = passforge("export " + run_dir_.string() + " --out " + good_link.string());
  EXPECT_EQ(ok.rc, 0) << ok.out;
  EXPECT_TRUE(std::filesystem::is_symlink(good_link));
  EXPECT_NE(read_file(target)->find("\"messages\""), std::string::npos);

  // A parent that is a regular file: the reason is the system's, even for root.
  auto not_dir =
      passforge("export " + run_dir_.string() + " --out " + (target / "x.jsonl").string());
  EXPECT_EQ(not_dir.rc, 2) << not_dir.out;
  EXPECT_NE(not_dir.out.find("Not a directory"), std::string::npos) << not_dir.out;
}

TEST_F(CliTest, ExportNamesPermissionErrors) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: permissions do not stop writes";
  auto locked = dir_.path() / "locked";
  std::filesystem::create_directories(locked);
  std::filesystem::permissions(
      locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  auto denied =
      passforge("export " + run_dir_.string() + " --out " + (locked / "x.jsonl").string());
  std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
  EXPECT_EQ(denied.rc, 2) << denied.out;
  EXPECT_NE(denied.out.find("Permission denied"), std::string::npos) << denied.out;
  EXPECT_FALSE(std::filesystem::exists(locked / "x.jsonl"));
}

TEST_F(CliTest, StatsPrintsTableJsonAndSvg) {
  auto table = passforge("stats " + run_dir_.string() + " " + run_dir_.string());
  ASSERT_EQ(table.rc, 0) << table.out;
  EXPECT_NE(table.out.find("mean best AS"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("1.5000"), std::string::npos) << table.out;  // (0.5 + 1.5 + 2.5) / 3
  auto svg = dir_.path() / "es.svg";
  auto json = passforge("stats " + run_dir_.string() + " --json --svg " + svg.string());
  ASSERT_EQ(json.rc, 0) << json.out;
  auto brace = json.out.find('{');
  ASSERT_NE(brace, std::string::npos);
  Json j = Json::parse(json.out.substr(brace, json.out.rfind('}') - brace + 1), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << json.out;
  EXPECT_EQ(j["episodes"], 3);
  EXPECT_DOUBLE_EQ(j["quality"]["mean_best_as"].get<double>(), 1.5);
  auto content = read_file(svg);
  ASSERT_TRUE(content.ok());
  EXPECT_NE(content->find("<polyline"), std::string::npos);
}

TEST_F(CliTest, StatsRefusesRunsOfDifferentScoringModes) {
  auto other = dir_.path() / "runs" / "graphnet";
  {
    auto s = TrajectoryStore::open(other, TrajectoryStore::OpenMode::create);
    ASSERT_TRUE(s.ok());
    RunRecord run = testing::make_run("20250101T000000Z-0000beef");
    run.config_json["evaluator"] = {{"scoring_mode", "graphnet"}};
    ASSERT_TRUE((*s)->create_run(run).ok());
  }
  auto mixed = passforge("stats " + run_dir_.string() + " " + other.string());
  EXPECT_EQ(mixed.rc, 2) << mixed.out;
  EXPECT_NE(mixed.out.find("refusing to show runs scored under different scoring modes"),
            std::string::npos)
      << mixed.out;
  EXPECT_NE(mixed.out.find("scoring_mode 'graphnet' in " + other.string()), std::string::npos)
      << mixed.out;
  EXPECT_NE(mixed.out.find("scoring_mode 'strict' in " + run_dir_.string()), std::string::npos)
      << mixed.out;
  EXPECT_EQ(mixed.out.find("mean best AS"), std::string::npos) << mixed.out;
  EXPECT_EQ(passforge("stats " + other.string()).rc, 0);
}

TEST_F(CliTest, MergeTwiceIsANoOp) {
  auto merged = dir_.path() / "runs" / "merged";
  auto first = passforge("merge " + run_dir_.string() + " --out " + merged.string());
  ASSERT_EQ(first.rc, 0) << first.out;
  EXPECT_NE(first.out.find("episodes +3"), std::string::npos) << first.out;
  auto second = passforge("merge " + run_dir_.string() + " --out " + merged.string());
  ASSERT_EQ(second.rc, 0) << second.out;
  EXPECT_NE(second.out.find("nothing new"), std::string::npos) << second.out;
  auto no_out = passforge("merge " + run_dir_.string());
  EXPECT_EQ(no_out.rc, 2);
}

}  // namespace
}  // namespace pf::traj
