// Context policies and the store round trip of messages.
#include "agent/loop/conversation.h"

#include <gtest/gtest.h>

#include "trajectories/trajectory_store.h"

namespace pf::agent {
namespace {

const prompts::PromptVariant& variant() {
  static auto v = prompts::PromptVariant::load(std::string(PF_SOURCE_DIR) + "/prompts", "default");
  EXPECT_TRUE(v.ok());
  return *v;
}

Conversation sample() {
  Conversation c;
  c.push_back({llm::ChatMessage::system("sys"), false});
  c.push_back({llm::ChatMessage::user("task"), false});
  for (int i = 1; i <= 3; ++i) {
    auto a = llm::ChatMessage::assistant("");
    a.reasoning = "thinking " + std::to_string(i);
    a.tool_calls = {{"call_" + std::to_string(i), "evaluate", "{}"}};
    c.push_back({a, false});
    auto t = llm::ChatMessage::tool("call_" + std::to_string(i),
                                    "AS 0." + std::to_string(i) + ": report\nline two");
    t.name = "evaluate";
    c.push_back({t, true});
  }
  return c;
}

TEST(Conversation, KeepAllSendsEveryMessageUnchanged) {
  auto c = sample();
  auto sent = request_messages(c, ContextPolicy::keep_all, 2, variant());
  ASSERT_EQ(sent.size(), c.size());
  for (size_t i = 0; i < c.size(); ++i) EXPECT_EQ(sent[i], c[i].message);
  EXPECT_EQ(reasoning_key_for(ContextPolicy::keep_all), "reasoning_content");
  EXPECT_EQ(reasoning_key_for(ContextPolicy::drop_reasoning), "");
}

TEST(Conversation, LastNReportsShortensOlderReportsToTheirFirstLine) {
  auto c = sample();
  auto sent = request_messages(c, ContextPolicy::last_n_reports, 2, variant());
  ASSERT_EQ(sent.size(), c.size());
  EXPECT_EQ(sent[3].content,
            "[An earlier evaluation report was shortened to its first line: AS 0.1: report]");
  EXPECT_EQ(sent[3].tool_call_id, "call_1");
  EXPECT_EQ(sent[5].content, c[5].message.content);
  EXPECT_EQ(sent[7].content, c[7].message.content);
  auto none = request_messages(c, ContextPolicy::last_n_reports, 0, variant());
  EXPECT_NE(none[7].content, c[7].message.content);
}

TEST(Conversation, MessagesRoundTripThroughTheStoreForm) {
  for (const auto& entry : sample()) {
    auto record = to_record(entry.message);
    EXPECT_TRUE(traj::validate_message(record).ok());
    EXPECT_EQ(from_record(record), entry.message);
  }
}

}  // namespace
}  // namespace pf::agent
