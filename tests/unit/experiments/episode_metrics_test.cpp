// `ab` counts a task as solved, and `improve` trains on and keeps as an
// exemplar, only verified episodes (trajectories/verification.h), on the
// mixed store of the export tests.
#include "experiments/episode_metrics.h"

#include <gtest/gtest.h>

#include <set>

#include "mixed_store.h"
#include "store_fixture.h"

namespace pf::experiments {
namespace {

TEST(EpisodeMetrics, OnlyVerifiedEpisodesAreCorrect) {
  traj::testing::TempDir dir;
  {
    auto s = traj::TrajectoryStore::open(dir.path(), traj::TrajectoryStore::OpenMode::create);
    ASSERT_TRUE(s.ok()) << s.error().message;
    traj::testing::write_mixed_store(**s);
  }
  auto reader = traj::TrajectoryReader::open(dir.path());
  ASSERT_TRUE(reader.ok());
  auto metrics = read_episode_metrics(*reader, traj::testing::kMixedRun, traj::EvalMode::full);
  ASSERT_TRUE(metrics.ok()) << metrics.error().message;
  std::set<std::string> correct;
  for (const auto& m : *metrics) {
    if (m.correct) correct.insert(m.episode_id);
    if (m.episode_id == traj::testing::mixed_episode("a", 1)) {
      // Incorrect with AS 1.59: scored, but not solved.
      EXPECT_DOUBLE_EQ(m.score, 1.59);
      EXPECT_FALSE(m.turns_to_first_correct);
    }
    if (m.episode_id == traj::testing::mixed_episode("a", 6)) {
      // A clean evaluate is a first correct turn, but the wrong final submit is not solved.
      EXPECT_EQ(m.turns_to_first_correct, 1);
      EXPECT_EQ(m.submit_score, 1.1);
    }
  }
  using traj::testing::mixed_episode;
  EXPECT_EQ(correct, (std::set<std::string>{mixed_episode("a", 0), mixed_episode("b", 0),
                                            mixed_episode("b", 1), mixed_episode("c", 0)}));
  auto agg = aggregate(*metrics);
  EXPECT_EQ(agg.episodes, 13);  // a:8 is still running
  EXPECT_NEAR(agg.correct_rate, 4.0 / 13.0, 1e-12);
}

}  // namespace
}  // namespace pf::experiments
