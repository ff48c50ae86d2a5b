#include "experiments/experiment_store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "trajectories/store_merge.h"

namespace pf::experiments {
namespace {

namespace fs = std::filesystem;

class ExperimentStoreMerge : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pf-experiment-store-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  //! An experiment store as ab/improve leave it: its record and exemplars.
  void write_experiment(const fs::path& dir, const std::string& id,
                        const std::vector<std::string>& exemplar_tasks) {
    auto store = ExperimentStore::open(dir);
    ASSERT_TRUE(store.ok()) << store.error().message;
    ExperimentRecord record{id, "improve", "rounds = 2\n", "improve.toml", {{"round", 1}}};
    ASSERT_TRUE(store->save(record).ok());
    for (const auto& task : exemplar_tasks) {
      Exemplar e;
      e.task_id = task;
      e.episode_id = id + ".r1.train:" + task + ":s0";
      e.op_sequence = {"add", task};
      e.round = 1;
      e.score = 1.5;
      e.files["passes/P.py"] = "# " + task + "\n";
      ASSERT_TRUE(store->add_exemplar(e).ok());
    }
  }

  fs::path dir_;
};

TEST_F(ExperimentStoreMerge, OneExperimentMergedKeepsItsRecordAndExemplars) {
  write_experiment(dir_ / "a", "loop-a", {"t1", "t2"});
  auto merged = traj::merge_stores({dir_ / "a"}, dir_ / "out");
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged->inserted.at("pf_experiment"), 1);
  EXPECT_EQ(merged->inserted.at("pf_exemplars"), 2);
  ASSERT_TRUE(has_experiment(dir_ / "out"));
  auto store = ExperimentStore::open(dir_ / "out");
  ASSERT_TRUE(store.ok());
  auto record = store->load();
  ASSERT_TRUE(record.ok() && *record) << (record.ok() ? "none" : record.error().message);
  EXPECT_EQ((*record)->id, "loop-a");
  EXPECT_EQ((*record)->state, (nlohmann::json{{"round", 1}}));
  auto exemplars = store->exemplars();
  ASSERT_TRUE(exemplars.ok());
  ASSERT_EQ(exemplars->size(), 2u);
  EXPECT_EQ((*exemplars)[1].files.at("passes/P.py"), "# t2\n");
}

TEST_F(ExperimentStoreMerge, TwoExperimentsMergedCarryBothButContinueNeither) {
  write_experiment(dir_ / "a", "loop-a", {"t1"});
  write_experiment(dir_ / "b", "loop-b", {"t1", "t2"});
  auto merged = traj::merge_stores({dir_ / "a", dir_ / "b"}, dir_ / "out");
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged->inserted.at("pf_experiment"), 2);
  EXPECT_EQ(merged->inserted.at("pf_exemplars"), 3);
  auto store = ExperimentStore::open(dir_ / "out");
  ASSERT_TRUE(store.ok());
  EXPECT_EQ(store->exemplars()->size(), 3u);
  auto record = store->load();
  ASSERT_FALSE(record.ok());
  EXPECT_NE(record.error().message.find("holds 2 experiments (loop-a, loop-b)"), std::string::npos)
      << record.error().message;

  // The same experiment continued after the merge: refused, not half-applied.
  {
    auto a = ExperimentStore::open(dir_ / "a");
    ASSERT_TRUE(a.ok());
    ExperimentRecord later{"loop-a", "improve", "rounds = 2\n", "improve.toml", {{"round", 2}}};
    ASSERT_TRUE(a->save(later).ok());
  }
  auto again = traj::merge_stores({dir_ / "a"}, dir_ / "out");
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("table 'pf_experiment' differ"), std::string::npos)
      << again.error().message;
}

}  // namespace
}  // namespace pf::experiments
