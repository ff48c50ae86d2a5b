// The response shapes real servers send, recorded in tests/data/endpoints/
// from each project's documented format (README.md there says which
// feature of which server every file shows), read the way the client reads
// them: SSE bytes in odd splits through SseParser and StreamAssembler, or a
// whole body through parse_chat_completion. Each file carries the same answer:
// reasoning, then write_file with a whole CUDA file in its JSON string
// arguments and compile, as two tool calls in one message.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "agent/llm/chat_response.h"
#include "agent/llm/sse_parser.h"
#include "agent/llm/stream_assembler.h"

namespace pf::llm {
namespace {

const std::string kDir = std::string(PF_SOURCE_DIR) + "/tests/data/endpoints/";
const std::string kReasoning = "I will write the kernel, then compile.";

std::string slurp(const std::string& name) {
  std::ifstream in(kDir + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << kDir + name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The stream as the client meets it: bytes in pieces that split lines, events
// and UTF-8 alike.
Result<ChatResponse> assemble(const std::string& sse, size_t piece, StreamAssembler& a) {
  SseParser parser;
  std::vector<SseEvent> events;
  for (size_t pos = 0; pos < sse.size(); pos += piece) {
    for (auto& e : parser.feed(std::string_view(sse).substr(pos, piece))) events.push_back(e);
  }
  for (auto& e : parser.finish()) events.push_back(e);
  for (const auto& e : events) {
    if (auto st = a.add(e.data); !st.ok()) return st.error();
  }
  return a.finish();
}

void expect_write_then_compile(const ChatResponse& r, const std::string& where) {
  ASSERT_EQ(r.message.tool_calls.size(), 2u) << where;
  const ToolCall& write = r.message.tool_calls[0];
  const ToolCall& compile = r.message.tool_calls[1];
  EXPECT_EQ(write.name, "write_file") << where;
  EXPECT_EQ(compile.name, "compile") << where;
  EXPECT_FALSE(write.id.empty()) << where;
  EXPECT_NE(write.id, compile.id) << where;
  auto args = nlohmann::json::parse(write.arguments, nullptr, false);
  ASSERT_TRUE(args.is_object()) << where << ": " << write.arguments;
  EXPECT_EQ(args["path"], "kernels/add_relu.cu") << where;
  EXPECT_EQ(args["content"].get<std::string>(), slurp("kernel.cu")) << where;
  EXPECT_EQ(compile.arguments, "{}") << where;
  EXPECT_EQ(r.usage.prompt_tokens, 1200) << where;
  EXPECT_EQ(r.usage.completion_tokens, 210) << where;
  EXPECT_FALSE(r.usage.estimated) << where;
}

struct Shape {
  const char* server;
  const char* stream_file;
  const char* body_file;
  const char* stream_finish;  // as the server sends it
  bool reasoning;
};

const Shape kShapes[] = {
    {"vllm", "vllm_stream_tools.sse", "vllm_tools.json", "tool_calls", true},
    {"sglang", "sglang_stream_tools.sse", "sglang_tools.json", "stop", true},
    {"llamacpp", "llamacpp_stream_tools.sse", "llamacpp_tools.json", "tool_calls", true},
    {"openai", "openai_stream_tools.sse", "openai_tools.json", "tool_calls", false},
};

TEST(EndpointShapes, StreamedToolCallsAssembleWhateverTheSplit) {
  for (const auto& s : kShapes) {
    for (size_t piece : {1u, 7u, 64u, 100000u}) {
      const std::string where = std::string(s.server) + " in pieces of " + std::to_string(piece);
      StreamAssembler a;
      auto r = assemble(slurp(s.stream_file), piece, a);
      ASSERT_TRUE(r.ok()) << where << ": " << r.error().message;
      expect_write_then_compile(*r, where);
      EXPECT_EQ(r->message.reasoning, s.reasoning ? kReasoning : "") << where;
      EXPECT_EQ(r->message.content, "") << where;
      EXPECT_EQ(r->finish_reason, s.stream_finish) << where;
      // What the store keeps reads back as the same answer.
      auto stored = parse_chat_completion(a.as_completion_json().dump());
      ASSERT_TRUE(stored.ok()) << where;
      EXPECT_EQ(stored->message, r->message) << where;
    }
  }
}

TEST(EndpointShapes, WholeBodiesParseToTheSameAnswer) {
  for (const auto& s : kShapes) {
    auto r = parse_chat_completion(slurp(s.body_file));
    ASSERT_TRUE(r.ok()) << s.server << ": " << r.error().message;
    expect_write_then_compile(*r, s.server);
    EXPECT_EQ(r->message.reasoning, s.reasoning ? kReasoning : "") << s.server;
    EXPECT_EQ(r->finish_reason, "tool_calls") << s.server;
    StreamAssembler a;
    auto streamed = assemble(slurp(s.stream_file), 4096, a);
    ASSERT_TRUE(streamed.ok());
    for (size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(r->message.tool_calls[i].arguments, streamed->message.tool_calls[i].arguments)
          << s.server;
    }
  }
}

TEST(EndpointShapes, UsageDetailsAndIdsAreKept) {
  StreamAssembler a;
  auto r = assemble(slurp("openai_stream_tools.sse"), 512, a);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->usage.cached_tokens, 1024);
  EXPECT_EQ(r->usage.reasoning_tokens, 0);
  EXPECT_EQ(r->id, "chatcmpl-B9xY");
  EXPECT_EQ(r->message.tool_calls[0].id, "call_Vq3TqW");
  // SGLang's calls share index 0; their own ids keep them apart.
  StreamAssembler b;
  auto s = assemble(slurp("sglang_stream_tools.sse"), 512, b);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->message.tool_calls[0].id, "0");
  EXPECT_EQ(s->message.tool_calls[1].id, "1");
}

TEST(EndpointShapes, LlamaCppAnswerCutAtTheTokenLimit) {
  StreamAssembler a;
  auto r = assemble(slurp("llamacpp_stream_length.sse"), 5, a);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->finish_reason, "length");
  EXPECT_TRUE(r->message.tool_calls.empty());
  const std::string whole = "```cuda kernels/add_relu.cu\n" + slurp("kernel.cu");
  EXPECT_LT(r->message.content.size(), whole.size());
  EXPECT_EQ(whole.rfind(r->message.content, 0), 0u) << "a prefix of the whole block, UTF-8 intact";
  EXPECT_EQ(r->usage.total_tokens, 964);
  EXPECT_FALSE(r->usage.estimated) << "usage rode on the finish chunk";
}

}  // namespace
}  // namespace pf::llm
