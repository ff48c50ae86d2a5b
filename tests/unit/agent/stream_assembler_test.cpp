#include "agent/llm/stream_assembler.h"

#include <gtest/gtest.h>

namespace pf::llm {
namespace {

TEST(StreamAssembler, AccumulatesContentReasoningAndToolCalls) {
  StreamAssembler a;
  const char* chunks[] = {
      R"({"id":"c1","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]})",
      R"({"choices":[{"index":0,"delta":{"reasoning_content":"Let me "}}]})",
      R"({"choices":[{"index":0,"delta":{"reasoning":"think."}}]})",
      R"({"choices":[{"index":0,"delta":{"content":"Writing "}}]})",
      R"({"choices":[{"index":0,"delta":{"content":"files."}}]})",
      R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"compile","arguments":""}}]}}]})",
      R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"write_file","arguments":"{\"pa"}}]}}]})",
      R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"th\": \"x\"}"}}]}}]})",
      R"({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})",
      R"({"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":8}}})",
      "[DONE]"};
  for (const char* c : chunks) ASSERT_TRUE(a.add(c).ok()) << c;
  ASSERT_TRUE(a.complete());
  auto r = a.finish();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->id, "c1");
  EXPECT_EQ(r->model, "m");
  EXPECT_EQ(r->message.role, "assistant");
  EXPECT_EQ(r->message.reasoning, "Let me think.");
  EXPECT_EQ(r->message.content, "Writing files.");
  ASSERT_EQ(r->message.tool_calls.size(), 2u);  // ordered by index, not by arrival
  EXPECT_EQ(r->message.tool_calls[0].id, "a");
  EXPECT_EQ(r->message.tool_calls[0].name, "write_file");
  EXPECT_EQ(r->message.tool_calls[0].arguments, R"({"path": "x"})");
  EXPECT_EQ(r->message.tool_calls[1].name, "compile");
  EXPECT_EQ(r->finish_reason, "tool_calls");
  EXPECT_EQ(r->usage.total_tokens, 15);
  EXPECT_EQ(r->usage.cached_tokens, 8);
  EXPECT_FALSE(r->usage.estimated);

  // The stored raw form parses back to the same response.
  auto again = parse_chat_completion(a.as_completion_json().dump());
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->message, r->message);
  EXPECT_EQ(again->finish_reason, "tool_calls");
}

// Servers that stream every parallel call as index 0 tell calls apart by id
// (repeated on each fragment, or only on a call's first one).
TEST(StreamAssembler, ParallelCallsSharingIndexZeroStaySeparateByTheirIds) {
  StreamAssembler a;
  const char* chunks[] = {
      R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"0","type":"function","function":{"name":"write_file","arguments":""}}]}}]})",
      R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"0","function":{"arguments":"{\"path\": "}}]}}]})",
      R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"0","function":{"arguments":"\"k.cu\"}"}}]}}]})",
      R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"1","type":"function","function":{"name":"compile","arguments":""}}]}}]})",
      R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"","function":{"arguments":"{}"}}]}}]})",
      R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"2","type":"function","function":{"name":"submit","arguments":"{}"}}]}}]})",
      R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})",
      "[DONE]"};
  for (const char* c : chunks) ASSERT_TRUE(a.add(c).ok()) << c;
  auto r = a.finish();
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->message.tool_calls.size(), 3u);
  EXPECT_EQ(r->message.tool_calls[0], (ToolCall{"0", "write_file", R"({"path": "k.cu"})"}));
  EXPECT_EQ(r->message.tool_calls[1], (ToolCall{"1", "compile", "{}"}));
  EXPECT_EQ(r->message.tool_calls[2], (ToolCall{"2", "submit", "{}"}));
  EXPECT_EQ(r->finish_reason, "stop") << "kept as sent; the agent looks at the calls";
}

TEST(StreamAssembler, NameRepeatedOnEveryFragmentCountsOnce) {
  StreamAssembler a;
  ASSERT_TRUE(
      a.add(
           R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"edit_","arguments":""}}]}}]})")
          .ok());
  ASSERT_TRUE(
      a.add(
           R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"file","arguments":"{"}}]}}]})")
          .ok());
  ASSERT_TRUE(
      a.add(
           R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"edit_file","arguments":"}"}}]}}]})")
          .ok());
  ASSERT_TRUE(a.add(R"({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})").ok());
  auto r = a.finish();
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->message.tool_calls.size(), 1u);
  EXPECT_EQ(r->message.tool_calls[0].name, "edit_file") << "split names join, repeats do not";
  EXPECT_EQ(r->message.tool_calls[0].arguments, "{}");
}

TEST(StreamAssembler, BothReasoningNamesInOneDeltaCountOnce) {
  StreamAssembler a;
  ASSERT_TRUE(
      a.add(R"({"choices":[{"index":0,"delta":{"reasoning_content":"r","reasoning":"r"}}]})").ok());
  ASSERT_TRUE(a.add(R"({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})").ok());
  EXPECT_EQ(a.finish()->message.reasoning, "r");
}

TEST(StreamAssembler, StreamWithoutEndIsIncomplete) {
  StreamAssembler a;
  ASSERT_TRUE(a.add(R"({"choices":[{"index":0,"delta":{"content":"half"}}]})").ok());
  EXPECT_FALSE(a.complete());
  auto r = a.finish();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("ended early"), std::string::npos);
}

TEST(StreamAssembler, MissingUsageIsMarkedEstimated) {
  StreamAssembler a;
  ASSERT_TRUE(
      a.add(R"({"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]})").ok());
  EXPECT_TRUE(a.complete());
  EXPECT_TRUE(a.finish()->usage.estimated);
}

TEST(StreamAssembler, ErrorEventAndGarbage) {
  StreamAssembler a;
  auto e = a.add(R"({"error":{"message":"maximum context length is 4096 tokens","code":400}})");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code, ErrorCode::unavailable);
  EXPECT_NE(e.error().message.find("maximum context length"), std::string::npos);
  auto g = a.add("{not json");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().code, ErrorCode::parse_error);
}

TEST(ChatCompletion, ParsesMessageUsageAndFinishReason) {
  auto r = parse_chat_completion(R"({
    "id": "x", "model": "m",
    "choices": [{"index": 0, "finish_reason": "length",
                 "message": {"role": "assistant", "content": "hi", "reasoning_content": "r"}}],
    "usage": {"prompt_tokens": 3, "completion_tokens": 2,
              "completion_tokens_details": {"reasoning_tokens": 1}}})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->message.content, "hi");
  EXPECT_EQ(r->message.reasoning, "r");
  EXPECT_EQ(r->finish_reason, "length");
  EXPECT_EQ(r->usage.total_tokens, 5);  // total defaults to the sum
  EXPECT_EQ(r->usage.reasoning_tokens, 1);
  EXPECT_FALSE(r->usage.cached_tokens.has_value());
}

TEST(ChatCompletion, TypedErrors) {
  EXPECT_EQ(parse_chat_completion("{\"choices\": [{\"mess").error().code, ErrorCode::parse_error);
  EXPECT_EQ(parse_chat_completion("[]").error().code, ErrorCode::parse_error);
  auto empty = parse_chat_completion(R"({"choices": []})");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("no choices"), std::string::npos);
  EXPECT_EQ(parse_chat_completion(R"({"choices": [{"index": 0}]})").error().code,
            ErrorCode::parse_error);
  auto err = parse_chat_completion(R"({"error": {"message": "overloaded"}})");
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.error().code, ErrorCode::unavailable);
  EXPECT_EQ(err.error().message, "overloaded");
}

TEST(ChatCompletion, EstimatesUsageWhenAbsent) {
  auto r = parse_chat_completion(
      R"({"choices": [{"message": {"content": "12345678"}, "finish_reason": "stop"}]})");
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->usage.estimated);
  estimate_missing_usage(*r, std::string(40, 'x'));
  EXPECT_EQ(r->usage.prompt_tokens, 10);
  EXPECT_EQ(r->usage.completion_tokens, 2);
  EXPECT_EQ(r->usage.total_tokens, 12);
}

}  // namespace
}  // namespace pf::llm
