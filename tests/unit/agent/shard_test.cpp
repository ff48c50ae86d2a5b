#include "agent/scheduler/shard.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "common/fs.h"
#include "tests/support/temp_dir.h"

namespace pf::agent {
namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(Shard, ExplicitSpecPartitionsEveryEpisodeOnce) {
  const auto none = env_of({});
  std::vector<int> owners(23, 0);
  for (int k = 0; k < 4; ++k) {
    auto s = parse_shard(std::to_string(k) + "/4", none);
    ASSERT_TRUE(s.ok()) << s.error().message;
    int owned = 0;
    for (int p = 0; p < 23; ++p) {
      if (s->owns(p)) {
        ++owners[p];
        ++owned;
      }
    }
    EXPECT_EQ(owned, s->share_of(23)) << k;
    EXPECT_EQ(s->dir_name(), "shard-" + std::to_string(k) + "-of-4");
  }
  for (int p = 0; p < 23; ++p) EXPECT_EQ(owners[p], 1) << p;
  EXPECT_EQ(parse_shard("3/4", none)->share_of(2), 0);
}

TEST(Shard, MalformedSpecsAreRefusedWithTheForm) {
  const auto none = env_of({});
  for (const char* bad : {"4/4", "-1/4", "1", "a/b", "1/0", "1/4x", ""}) {
    auto s = parse_shard(bad, none);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.error().message.find('K'), std::string::npos) << s.error().message;
  }
}

TEST(Shard, SlurmArrayFromItsEnvironment) {
  // --array=1-3: ids 1..3 are shards 0..2 of 3.
  auto s = parse_shard("env", env_of({{"SLURM_ARRAY_TASK_ID", "3"},
                                      {"SLURM_ARRAY_TASK_MIN", "1"},
                                      {"SLURM_ARRAY_TASK_MAX", "3"}}));
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 3);
  EXPECT_EQ(s->source, "slurm");
  s = parse_shard("env", env_of({{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "5"}}));
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->count, 5);
  s = parse_shard("env", env_of({{"SLURM_ARRAY_TASK_ID", "0"}}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("SLURM_ARRAY_TASK_MAX"), std::string::npos) << s.error().message;
  EXPECT_EQ(shard_job_run_id(env_of({{"SLURM_ARRAY_JOB_ID", "77"}})), "slurm-77");
}

TEST(Shard, KubernetesIndexedJobNeedsTheShardCount) {
  auto s = parse_shard("env", env_of({{"JOB_COMPLETION_INDEX", "1"}, {"PASSFORGE_SHARDS", "4"}}));
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->index, 1);
  EXPECT_EQ(s->source, "kubernetes");
  s = parse_shard("env", env_of({{"JOB_COMPLETION_INDEX", "1"}}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("PASSFORGE_SHARDS"), std::string::npos) << s.error().message;
  s = parse_shard("env", env_of({{"JOB_COMPLETION_INDEX", "4"}, {"PASSFORGE_SHARDS", "4"}}));
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(parse_shard("env", env_of({})).ok());
}

TEST(Shard, ShardFileRoundTrips) {
  auto dir = test::fresh_temp_dir("pf_shard");
  EXPECT_EQ(read_shard_file(dir)->count, 1) << "no file: the whole run";
  ASSERT_TRUE(write_shard_file(dir, Shard{2, 3, "slurm"}).ok());
  auto s = read_shard_file(dir);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 3);
  EXPECT_EQ(s->source, "slurm");
  ASSERT_TRUE(write_file_atomic(dir / "shard.json", "{\"index\": 5}").ok());
  EXPECT_FALSE(read_shard_file(dir).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pf::agent
