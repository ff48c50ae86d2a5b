#include "experiments/exemplar_library.h"

#include <gtest/gtest.h>

namespace pf::experiments {
namespace {

Exemplar make(const std::string& task, std::vector<std::string> ops, double score,
              size_t kernel_bytes = 10) {
  Exemplar e;
  e.task_id = task;
  e.op_sequence = std::move(ops);
  e.score = score;
  e.episode_id = "run:" + task + ":s0";
  e.files["passes/P.py"] = "def pattern(x):\n    return x\n";
  e.files["kernels/k.cu"] = std::string(kernel_bytes, 'x');
  return e;
}

TEST(OpSimilarity, LongestCommonSubsequenceRatio) {
  EXPECT_DOUBLE_EQ(op_similarity({"add", "softmax", "dropout"}, {"add", "softmax", "dropout"}), 1);
  // LCS(add softmax dropout, add softmax) = 2: 2*2 / (3+2).
  EXPECT_DOUBLE_EQ(op_similarity({"add", "softmax", "dropout"}, {"add", "softmax"}), 0.8);
  // Order matters: LCS(a b c, c b a) = 1.
  EXPECT_DOUBLE_EQ(op_similarity({"a", "b", "c"}, {"c", "b", "a"}), 2.0 / 6);
  EXPECT_DOUBLE_EQ(op_similarity({"a"}, {"b"}), 0);
  EXPECT_DOUBLE_EQ(op_similarity({}, {}), 1);
}

TEST(ChooseExemplars, MostSimilarFirstNeverItselfWithinBudget) {
  std::vector<Exemplar> library = {
      make("self", {"add", "softmax"}, 1.0), make("close", {"add", "softmax", "dropout"}, 0.5),
      make("far", {"add", "mul", "neg", "cat"}, 2.0), make("unrelated", {"conv2d"}, 3.0)};
  auto chosen = choose_exemplars(library, "self", {"add", "softmax"}, 5, 100000);
  ASSERT_EQ(chosen.size(), 2u);  // "self" excluded, "unrelated" has similarity 0
  EXPECT_EQ(chosen[0].exemplar->task_id, "close");
  EXPECT_DOUBLE_EQ(chosen[0].similarity, 0.8);
  EXPECT_EQ(chosen[1].exemplar->task_id, "far");
  EXPECT_EQ(choose_exemplars(library, "self", {"add", "softmax"}, 1, 100000).size(), 1u);
  EXPECT_TRUE(choose_exemplars(library, "self", {"add", "softmax"}, 0, 100000).empty());
  // A budget that fits only the small exemplar skips the big, more similar one.
  library[1] = make("close", {"add", "softmax", "dropout"}, 0.5, 40000);
  auto small = choose_exemplars(library, "self", {"add", "softmax"}, 5, 1000);
  ASSERT_EQ(small.size(), 1u);
  EXPECT_EQ(small[0].exemplar->task_id, "far");
}

TEST(ChooseExemplars, OnePerTaskTiesToTheHigherScore) {
  std::vector<Exemplar> library = {make("t1", {"add"}, 0.4), make("t1", {"add"}, 0.9),
                                   make("t2", {"add"}, 0.6)};
  library[1].episode_id = "run:t1:s1";
  auto chosen = choose_exemplars(library, "x", {"add"}, 5, 100000);
  ASSERT_EQ(chosen.size(), 2u);
  EXPECT_EQ(chosen[0].exemplar->task_id, "t1");
  EXPECT_DOUBLE_EQ(chosen[0].exemplar->score, 0.9);
  EXPECT_EQ(chosen[1].exemplar->task_id, "t2");
}

TEST(ExemplarBlock, FencedBlocksNamedByPath) {
  EXPECT_EQ(exemplar_block({}), "");
  std::vector<Exemplar> library = {make("close", {"add", "softmax"}, 0.5)};
  auto block = exemplar_block(choose_exemplars(library, "t", {"add", "softmax"}, 2, 100000));
  EXPECT_NE(block.find("## Solved examples of similar tasks"), std::string::npos);
  EXPECT_NE(block.find("### Example 1: task close (similarity 1.00, score 0.500)"),
            std::string::npos);
  EXPECT_NE(block.find("```python passes/P.py\ndef pattern(x):\n    return x\n```"),
            std::string::npos);
  EXPECT_NE(block.find("```cuda kernels/k.cu\n"), std::string::npos);
}

}  // namespace
}  // namespace pf::experiments
