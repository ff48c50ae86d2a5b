// Context policies and the store round trip of messages.
#include "agent/loop/conversation.h"

#include <gtest/gtest.h>

#include "agent/llm/chat_request.h"
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

int64_t tokens_of(const std::vector<llm::ChatMessage>& messages, const std::string& key) {
  return estimate_request_tokens(messages, key, nullptr);
}

TEST(Conversation, ContextBudgetShortensReportsThenDropsReasoning) {
  Conversation c = sample();
  for (auto& e : c) {
    if (e.report) e.message.content += "\n" + std::string(4000, 'r');
    if (!e.message.reasoning.empty()) e.message.reasoning += std::string(2000, 't');
  }
  const auto all = request_messages(c, ContextPolicy::keep_all, 2, variant());
  const int64_t full = tokens_of(all, "reasoning_content");

  FittedContext unlimited = fit_context(c, ContextPolicy::keep_all, 2, variant(), nullptr, 0);
  EXPECT_TRUE(unlimited.fits);
  EXPECT_TRUE(unlimited.steps.empty());
  EXPECT_EQ(unlimited.estimated_tokens, full);
  EXPECT_EQ(unlimited.messages, all);

  // Just under the full size: older reports go first (the newest two stay).
  FittedContext a = fit_context(c, ContextPolicy::keep_all, 2, variant(), nullptr, full - 1);
  ASSERT_TRUE(a.fits);
  EXPECT_EQ(a.steps, (std::vector<std::string>{"reports: last 2"}));
  EXPECT_EQ(a.reasoning_key, "reasoning_content");
  EXPECT_LE(a.estimated_tokens, full - 1);
  EXPECT_NE(a.messages[3].content, c[3].message.content);
  EXPECT_EQ(a.messages[7].content, c[7].message.content);

  // Room for one report, not for the reasoning: both steps.
  const auto one = request_messages(c, ContextPolicy::last_n_reports, 1, variant());
  FittedContext b = fit_context(c, ContextPolicy::keep_all, 2, variant(), nullptr,
                                tokens_of(one, "reasoning_content") - 1);
  ASSERT_TRUE(b.fits);
  EXPECT_EQ(b.steps,
            (std::vector<std::string>{"reports: last 2", "reports: last 1", "reasoning dropped"}));
  EXPECT_EQ(b.reasoning_key, "");
  EXPECT_EQ(b.messages[7].content, c[7].message.content) << "the newest report stays whole";

  // Below even that: reported, not sent.
  FittedContext none = fit_context(c, ContextPolicy::keep_all, 2, variant(), nullptr, 10);
  EXPECT_FALSE(none.fits);
  EXPECT_GT(none.estimated_tokens, 10);

  // The store's conversation is never touched.
  EXPECT_EQ(c[3].message.content.size(), sample()[3].message.content.size() + 4001);
}

TEST(Conversation, ToolSchemasCountTowardsTheBudget) {
  Conversation c = sample();
  nlohmann::json tools = nlohmann::json::parse(
      R"([{"type": "function", "function": {"name": "submit", "description": "ends it"}}])");
  const auto all = request_messages(c, ContextPolicy::keep_all, 2, variant());
  EXPECT_EQ(estimate_request_tokens(all, "reasoning_content", tools),
            tokens_of(all, "reasoning_content") + llm::estimate_tokens(tools.dump()));
}

}  // namespace
}  // namespace pf::agent
