#include "experiments/exemplar_library.h"

#include <gtest/gtest.h>

#include "prompts/prompt_variant.h"

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

TEST(ExemplarContext, NullWithoutExemplarsElseFormattedFields) {
  EXPECT_TRUE(exemplar_context({}).is_null());
  std::vector<Exemplar> library = {make("close", {"add", "softmax"}, 0.5)};
  auto ctx = exemplar_context(choose_exemplars(library, "t", {"add", "softmax"}, 2, 100000));
  ASSERT_EQ(ctx["count"], 1);
  const auto& e = ctx["examples"][0];
  EXPECT_EQ(e["number"], 1);
  EXPECT_EQ(e["task_id"], "close");
  EXPECT_EQ(e["op_sequence"], "add, softmax");
  EXPECT_EQ(e["similarity"], "1.00");
  EXPECT_EQ(e["score"], "0.500");
  ASSERT_EQ(e["files"].size(), 2u);
  EXPECT_EQ(e["files"][0]["path"], "kernels/k.cu");
  EXPECT_EQ(e["files"][0]["lang"], "cuda");
  EXPECT_EQ(e["files"][0]["content"], "xxxxxxxxxx\n");  // a newline closes the last line
  EXPECT_EQ(e["files"][1]["lang"], "python");
}

// Every committed variant shows the exemplars through its task.md (fenced
// blocks named by path), and nothing of them when there are none.
TEST(ExemplarContext, CommittedTaskTemplatesRenderTheExemplars) {
  std::vector<Exemplar> library = {make("close", {"add", "softmax"}, 0.5),
                                   make("far", {"add", "mul", "neg"}, 1.0)};
  auto chosen = choose_exemplars(library, "t", {"add", "softmax"}, 2, 100000);
  ASSERT_EQ(chosen.size(), 2u);
  nlohmann::json ctx = {{"task_id", "t"},
                        {"op_sequence", "add -> softmax"},
                        {"variants", {{{"number", 1}, {"name", "v0"}, {"graph", "x = a + b\n"}}}},
                        {"tools_mode", true},
                        {"chat_mode", false}};
  for (const char* name : {"default", "concise"}) {
    auto v = prompts::PromptVariant::load(PF_SOURCE_DIR "/prompts", name);
    ASSERT_TRUE(v.ok()) << v.error().message;
    auto plain = v->render(prompts::kTaskFile, ctx);
    ctx["exemplars"] = nullptr;
    auto none = v->render(prompts::kTaskFile, ctx);
    ctx["exemplars"] = exemplar_context(chosen);
    auto with = v->render(prompts::kTaskFile, ctx);
    ctx.erase("exemplars");
    ASSERT_TRUE(plain.ok() && none.ok() && with.ok()) << name;
    EXPECT_EQ(*none, *plain) << name;
    EXPECT_EQ(with->substr(0, plain->size()), *plain) << name << ": exemplars come after the task";
    const std::string added = with->substr(plain->size());
    EXPECT_NE(added.find("```python passes/P.py\ndef pattern(x):\n    return x\n```"),
              std::string::npos)
        << name << ":\n"
        << added;
    EXPECT_NE(added.find("```cuda kernels/k.cu\nxxxxxxxxxx\n```"), std::string::npos) << name;
    EXPECT_LT(added.find("close"), added.find("far")) << name << ": most similar first";
    EXPECT_NE(added.find("similarity 1.00"), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace pf::experiments
