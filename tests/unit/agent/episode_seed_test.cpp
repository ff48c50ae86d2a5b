#include "agent/scheduler/episode_seed.h"

#include <gtest/gtest.h>

#include <set>

namespace pf::agent {
namespace {

TEST(EpisodeSeed, DeterministicDistinctAndWithinInt32) {
  EXPECT_EQ(episode_seed(0, "task-a", 0), episode_seed(0, "task-a", 0));
  std::set<int64_t> seen;
  for (int64_t run : {0, 1}) {
    for (const char* task : {"task-a", "task-b"}) {
      for (int64_t s = 0; s < 4; ++s) {
        int64_t seed = episode_seed(run, task, s);
        EXPECT_GE(seed, 0);
        EXPECT_LE(seed, 0x7fffffff);
        seen.insert(seed);
      }
    }
  }
  EXPECT_EQ(seen.size(), 16u);
}

}  // namespace
}  // namespace pf::agent
