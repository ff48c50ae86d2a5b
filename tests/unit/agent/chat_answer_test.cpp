// Chat-mode answers: fenced blocks with paths become a fresh workspace;
// every malformed shape is reported with what the corrective message needs.
#include "agent/loop/chat_answer.h"

#include <gtest/gtest.h>

namespace pf::agent {
namespace {

TEST(ChatAnswer, ReadsBlocksWithPathsInTheInfoString) {
  auto a = parse_chat_answer(
      "Here is the pass.\n\n```python passes/FuseAddRelu.py\ndef pattern(x, y):\n    return "
      "x\n```\n"
      "and the kernel:\n````cuda kernels/add_relu.cu\nextern \"C\" __global__ void k() {}\n```\n"
      "still inside (four-backtick fence)\n````\n"
      "```json path=\"passes/order.json\"\n[\"FuseAddRelu\"]\n```");
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a.submit);
  ASSERT_EQ(a.files.size(), 3u);
  EXPECT_EQ(a.files["passes/FuseAddRelu.py"], "def pattern(x, y):\n    return x\n");
  EXPECT_EQ(a.files["kernels/add_relu.cu"],
            "extern \"C\" __global__ void k() {}\n```\nstill inside (four-backtick fence)\n");
  EXPECT_EQ(a.files["passes/order.json"], "[\"FuseAddRelu\"]\n");
}

TEST(ChatAnswer, PathOnlyInfoStringAndCrLfLines) {
  auto a = parse_chat_answer("```kernels/k.cu\r\nint x;\r\n```\r\n");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.files.at("kernels/k.cu"), "int x;\n");
}

TEST(ChatAnswer, SubmitIsAWordOnItsOwnLineWithoutBlocks) {
  EXPECT_TRUE(parse_chat_answer("SUBMIT").submit);
  EXPECT_TRUE(parse_chat_answer("I am done.\n\nSUBMIT\n").submit);
  auto prose = parse_chat_answer("I will SUBMIT later");
  EXPECT_FALSE(prose.submit);
  EXPECT_EQ(prose.problem, AnswerProblem::no_code_blocks);
  // Blocks win over the word: the pass is evaluated.
  auto both = parse_chat_answer("```cuda kernels/k.cu\nx\n```\nSUBMIT");
  EXPECT_TRUE(both.ok());
  EXPECT_FALSE(both.submit);
}

TEST(ChatAnswer, ReportsMalformedAnswers) {
  EXPECT_EQ(parse_chat_answer("  \n").problem, AnswerProblem::empty);
  EXPECT_EQ(parse_chat_answer("just prose").problem, AnswerProblem::no_code_blocks);

  auto no_path = parse_chat_answer("```cuda kernels/a.cu\nx\n```\n```python\ny\n```");
  EXPECT_EQ(no_path.problem, AnswerProblem::block_without_path);
  EXPECT_EQ(no_path.block, 2);
  EXPECT_EQ(no_path.info, "python");

  auto bad = parse_chat_answer("```python src/../../etc/passwd\nx\n```");
  EXPECT_EQ(bad.problem, AnswerProblem::bad_path);
  EXPECT_EQ(bad.path, "src/../../etc/passwd");
  EXPECT_FALSE(bad.reason.empty());

  auto dup = parse_chat_answer("```cuda kernels/a.cu\nx\n```\n```cuda kernels/a.cu\ny\n```");
  EXPECT_EQ(dup.problem, AnswerProblem::duplicate_path);
  EXPECT_EQ(dup.path, "kernels/a.cu");

  EXPECT_EQ(parse_chat_answer("```cuda kernels/a.cu\nint x;\n").problem,
            AnswerProblem::unterminated_block);
}

TEST(ChatAnswer, LaterAnswersCarryOnlyWhatChanged) {
  traj::Workspace before = {{"passes/Fuse.py", "pass v1\n"},
                            {"kernels/a.cu", "kernel v1\n"},
                            {"kernels/old.cu", "old\n"}};
  auto answer = parse_chat_answer(
      "Only the kernel changed.\n```cuda kernels/a.cu\nkernel v2\n```\n"
      "```cuda kernels/old.cu\n```\n```cuda kernels/b.cu\nnew\n```\n");
  ASSERT_TRUE(answer.ok());
  traj::Workspace after = apply_chat_answer(before, answer.files);
  EXPECT_EQ(after, (traj::Workspace{{"passes/Fuse.py", "pass v1\n"},
                                    {"kernels/a.cu", "kernel v2\n"},
                                    {"kernels/b.cu", "new\n"}}))
      << "kept, replaced, deleted by an empty block, added";
  EXPECT_EQ(apply_chat_answer({}, answer.files).count("kernels/old.cu"), 0u);
}

}  // namespace
}  // namespace pf::agent
