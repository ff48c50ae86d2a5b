// SIGKILLs a real writer process at random points and checks that the store
// is intact and holds every turn the writer reported committed, complete.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include "trajectories/ids.h"
#include "tests/support/temp_dir.h"
#include "trajectories/trajectory_reader.h"

extern char** environ;

namespace pf::traj {
namespace {

constexpr int kEpisodes = 3;

//! The last turn the writer reported per episode index.
std::map<int, int64_t> reported_turns(const std::filesystem::path& log) {
  std::map<int, int64_t> last;
  std::ifstream in(log);
  int ep = 0;
  int64_t turn = 0;
  while (in >> ep >> turn) last[ep] = std::max(last[ep], turn);
  return last;
}

//! `committed` holds, per episode, the turns known committed: the writer's
//! reports merged with what earlier iterations found; updated to the store's.
void check_store(const std::filesystem::path& dir, std::map<int, int64_t>& committed,
                 int iteration) {
  SCOPED_TRACE("iteration " + std::to_string(iteration));
  auto reader = TrajectoryReader::open(dir);
  if (!reader.ok() && committed.empty()) {
    // Killed while creating the database: nothing was committed, and the
    // next writer must still be able to open and migrate it.
    return;
  }
  ASSERT_TRUE(reader.ok()) << reader.error().message;
  auto integrity = reader->check_integrity();
  ASSERT_TRUE(integrity.ok()) << integrity.error().message;
  for (int i = 0; i < kEpisodes; ++i) {
    std::string id = episode_id("20250101T000000Z-0000dead", "t", i);
    auto ep = reader->episode(id);
    if (!ep.ok()) {
      // Killed before this episode started: nothing may be reported for it.
      EXPECT_EQ(committed.count(i), 0u);
      continue;
    }
    int64_t rep = committed.count(i) ? committed.at(i) : 0;
    int64_t turns = ep->turns;
    // The writer reports after COMMIT, so a kill between the two leaves one
    // committed turn unreported; nothing reported may be missing.
    EXPECT_GE(turns, rep) << id;
    EXPECT_LE(turns, rep + 1) << id;
    committed[i] = turns;

    auto msgs = reader->messages(id);
    ASSERT_TRUE(msgs.ok());
    ASSERT_EQ(msgs->size(), static_cast<size_t>(1 + 2 * turns)) << id;
    for (size_t k = 0; k < msgs->size(); ++k) {
      EXPECT_EQ((*msgs)[k].seq, static_cast<int64_t>(k));
      int64_t expect_turn = k == 0 ? 0 : static_cast<int64_t>((k + 1) / 2);
      EXPECT_EQ((*msgs)[k].turn, expect_turn);
      if (k > 0) {
        EXPECT_NE((*msgs)[k].content.find(std::to_string(expect_turn)), std::string::npos);
      }
    }
    auto evals = reader->evaluations(id);
    ASSERT_TRUE(evals.ok());
    ASSERT_EQ(evals->size(), static_cast<size_t>(turns));
    for (int64_t t = 1; t <= turns; ++t) {
      const auto& e = (*evals)[static_cast<size_t>(t - 1)];
      EXPECT_EQ(e.turn, t);
      auto ws = reader->workspace(e.workspace_sha);
      ASSERT_TRUE(ws.ok()) << ws.error().message;
      EXPECT_EQ(ws->at("kernels/k.cu"), "shared kernel");
      EXPECT_EQ(ws->at("passes/P.py").rfind("turn " + std::to_string(t) + "p", 0), 0u);
    }
    auto calls = reader->llm_calls(id);
    ASSERT_TRUE(calls.ok());
    EXPECT_EQ(calls->size(), static_cast<size_t>(turns));
  }
}

TEST(TrajectoryKill, SigkilledWriterLosesNoCommittedTurn) {
  auto dir = pf::test::fresh_temp_dir("pf-kill");
  auto log = dir / "committed.log";
  std::random_device rd;
  unsigned seed = rd();
  std::mt19937 rng(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::uniform_int_distribution<int> delay_ms(0, 400);
  std::string episodes = std::to_string(kEpisodes);
  int64_t total_before = 0;
  std::map<int, int64_t> committed;
  for (int iteration = 0; iteration < 8; ++iteration) {
    std::vector<std::string> args = {PF_KILL_WRITER, dir.string(), log.string(), episodes};
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, PF_KILL_WRITER, nullptr, nullptr, argv.data(), environ), 0);
    if (iteration % 2 == 1) {
      // Odd iterations kill mid-stream: wait (on a loaded machine, long) for
      // this writer's first report before the random delay. Even iterations
      // may kill it during start-up, migration or resume.
      auto before = std::filesystem::exists(log) ? std::filesystem::file_size(log) : 0;
      for (int i = 0; i < 1000; ++i) {
        if (std::filesystem::exists(log) && std::filesystem::file_size(log) > before) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(rng)));
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    // A writer that exited on its own hit an error: that is a failure too.
    ASSERT_TRUE(WIFSIGNALED(status)) << "writer exited with " << WEXITSTATUS(status);
    for (auto& [ep, t] : reported_turns(log)) committed[ep] = std::max(committed[ep], t);
    check_store(dir, committed, iteration);
    int64_t total = 0;
    for (auto& [ep, t] : committed) total += t;
    EXPECT_GE(total, total_before);
    total_before = total;
  }
  EXPECT_GT(total_before, 0) << "the writer never committed a turn; the test proved nothing";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pf::traj
