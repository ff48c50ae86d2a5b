// Shards: "K/N", the job arrays' environment, the partition and the run id
// every shard derives.
#include "agent/scheduler/shard.h"

#include <gtest/gtest.h>

#include <map>

namespace pf::agent {
namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(Shard, ParsesKOfNAndRejectsTheRest) {
  auto s = parse_shard("2/5");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 5);
  for (const char* bad : {"5/5", "-1/3", "1", "a/b", "1/0", "1/3x", "/3", ""}) {
    EXPECT_FALSE(parse_shard(bad).ok()) << bad;
  }
}

TEST(Shard, EveryEpisodeInExactlyOneShard) {
  for (int n : {1, 2, 3, 7}) {
    int64_t total = 0;
    for (int k = 0; k < n; ++k) total += shard_episodes(10, Shard{k, n});
    EXPECT_EQ(total, 10) << n;
    for (int64_t i = 0; i < 10; ++i) {
      int owners = 0;
      for (int k = 0; k < n; ++k) owners += in_shard(i, Shard{k, n}) ? 1 : 0;
      EXPECT_EQ(owners, 1) << i << " of " << n;
    }
  }
  EXPECT_EQ(shard_episodes(2, Shard{2, 3}), 0);
  EXPECT_EQ(shard_episodes(7, Shard{0, 3}), 3);
}

TEST(Shard, FromSlurmArrays) {
  // --array=1-4: ids 1..4, MIN 1, COUNT 4.
  auto s = shard_from_environment(env_of({{"SLURM_ARRAY_TASK_ID", "3"},
                                          {"SLURM_ARRAY_TASK_MIN", "1"},
                                          {"SLURM_ARRAY_TASK_MAX", "4"},
                                          {"SLURM_ARRAY_TASK_COUNT", "4"}}));
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_TRUE(*s);
  EXPECT_EQ((*s)->index, 2);
  EXPECT_EQ((*s)->count, 4);
  // --array=0-12:4 without COUNT: ids 0, 4, 8, 12.
  auto stepped = shard_from_environment(env_of({{"SLURM_ARRAY_TASK_ID", "8"},
                                                {"SLURM_ARRAY_TASK_MIN", "0"},
                                                {"SLURM_ARRAY_TASK_MAX", "12"},
                                                {"SLURM_ARRAY_TASK_STEP", "4"}}));
  ASSERT_TRUE(stepped.ok()) << stepped.error().message;
  EXPECT_EQ((*stepped)->index, 2);
  EXPECT_EQ((*stepped)->count, 4);
  EXPECT_FALSE(shard_from_environment(env_of({{"SLURM_ARRAY_TASK_ID", "3"}})).ok());
  EXPECT_FALSE(shard_from_environment(
                   env_of({{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_COUNT", "2"}}))
                   .ok());
}

TEST(Shard, FromKubernetesIndexedJobs) {
  auto s =
      shard_from_environment(env_of({{"JOB_COMPLETION_INDEX", "0"}, {"PASSFORGE_SHARDS", "3"}}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->index, 0);
  EXPECT_EQ((*s)->count, 3);
  auto missing = shard_from_environment(env_of({{"JOB_COMPLETION_INDEX", "1"}}));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("PASSFORGE_SHARDS"), std::string::npos);
  EXPECT_FALSE(
      shard_from_environment(env_of({{"JOB_COMPLETION_INDEX", "3"}, {"PASSFORGE_SHARDS", "3"}}))
          .ok());
  auto none = shard_from_environment(env_of({}));
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(*none);
}

TEST(Shard, ShardsOfOneConfigShareARunIdAndDirectoriesDiffer) {
  Config a;
  a.run.shard_count = 3;
  a.run.shard_index = 0;
  Config b = a;
  b.run.shard_index = 2;
  EXPECT_EQ(sharded_run_id(a), sharded_run_id(b));
  Config other = a;
  other.run.seed = 1;
  EXPECT_NE(sharded_run_id(a), sharded_run_id(other));
  EXPECT_EQ(shard_dir_name("r", Shard{1, 3}), "r-shard-1-of-3");
  EXPECT_EQ(shard_dir_name("r", Shard{}), "r");
}

}  // namespace
}  // namespace pf::agent
