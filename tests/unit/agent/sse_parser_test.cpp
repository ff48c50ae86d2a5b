#include "agent/llm/sse_parser.h"

#include <gtest/gtest.h>

namespace pf::llm {
namespace {

std::vector<SseEvent> parse_all(std::string_view text, size_t chunk) {
  SseParser p;
  std::vector<SseEvent> out;
  for (size_t i = 0; i < text.size(); i += chunk) {
    for (auto& e : p.feed(text.substr(i, chunk))) out.push_back(std::move(e));
  }
  for (auto& e : p.finish()) out.push_back(std::move(e));
  return out;
}

TEST(SseParser, SameEventsWhateverTheChunking) {
  const std::string text =
      ": keep-alive comment\r\n"
      "data: {\"a\":1}\r\n\r\n"
      "event: update\n"
      "data: line1\n"
      "data:line2\n"
      "id: 7\n"
      "\n"
      "data: [DONE]\r\r";
  for (size_t chunk = 1; chunk <= text.size(); ++chunk) {
    auto events = parse_all(text, chunk);
    ASSERT_EQ(events.size(), 3u) << "chunk size " << chunk;
    EXPECT_EQ(events[0].data, "{\"a\":1}");
    EXPECT_EQ(events[0].event, "");
    EXPECT_EQ(events[1].event, "update");
    EXPECT_EQ(events[1].data, "line1\nline2");  // one leading space stripped, lines joined
    EXPECT_EQ(events[2].data, "[DONE]");
  }
}

TEST(SseParser, FinishDeliversAnUnterminatedLastEvent) {
  SseParser p;
  EXPECT_EQ(p.feed("data: x\n\ndata: [DONE]").size(), 1u);
  auto rest = p.finish();
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].data, "[DONE]");
}

TEST(SseParser, BlankLinesAloneAndFieldsWithoutDataMakeNoEvent) {
  auto events = parse_all("\n\n\nevent: ping\n\nretry: 10\n\n", 3);
  EXPECT_TRUE(events.empty());
}

TEST(SseParser, EmptyDataLineIsAnEvent) {
  auto events = parse_all("data\n\n", 100);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "");
}

}  // namespace
}  // namespace pf::llm
