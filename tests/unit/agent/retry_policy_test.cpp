#include "agent/llm/retry_policy.h"

#include <gtest/gtest.h>

namespace pf::llm {
namespace {

TEST(Backoff, FullJitterUnderAnExponentialCappedCeiling) {
  // Ceilings 1, 2, 4, 8 ... capped at 10; u01 scales within [0, ceiling).
  EXPECT_DOUBLE_EQ(backoff_delay_s(1, 1.0, 10.0, 0.5), 0.5);
  EXPECT_DOUBLE_EQ(backoff_delay_s(2, 1.0, 10.0, 0.5), 1.0);
  EXPECT_DOUBLE_EQ(backoff_delay_s(3, 1.0, 10.0, 0.5), 2.0);
  EXPECT_DOUBLE_EQ(backoff_delay_s(4, 1.0, 10.0, 0.99), 7.92);
  EXPECT_DOUBLE_EQ(backoff_delay_s(5, 1.0, 10.0, 0.5), 5.0);     // 16 capped to 10
  EXPECT_DOUBLE_EQ(backoff_delay_s(200, 1.0, 10.0, 1.0), 10.0);  // no overflow
  EXPECT_DOUBLE_EQ(backoff_delay_s(3, 0.25, 60.0, 0.0), 0.0);
}

TEST(RetryAfter, DeltaSeconds) {
  auto now = std::chrono::system_clock::now();
  EXPECT_EQ(parse_retry_after("120", now), 120.0);
  EXPECT_EQ(parse_retry_after(" 0 ", now), 0.0);
  EXPECT_EQ(parse_retry_after("1.5", now), 1.5);
  EXPECT_FALSE(parse_retry_after("", now).has_value());
  EXPECT_FALSE(parse_retry_after("-3", now).has_value());
  EXPECT_FALSE(parse_retry_after("soon", now).has_value());
  EXPECT_FALSE(parse_retry_after("12abc", now).has_value());
}

TEST(RetryAfter, HttpDatesInAllThreeForms) {
  // 1994-11-06 08:49:37 UTC.
  auto date = std::chrono::system_clock::from_time_t(784111777);
  auto now = date - std::chrono::seconds(90);
  EXPECT_DOUBLE_EQ(*parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now), 90.0);
  EXPECT_DOUBLE_EQ(*parse_retry_after("Sunday, 06-Nov-94 08:49:37 GMT", now), 90.0);
  EXPECT_DOUBLE_EQ(*parse_retry_after("Sun Nov  6 08:49:37 1994", now), 90.0);
  // A date in the past means "now".
  EXPECT_DOUBLE_EQ(
      *parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", date + std::chrono::hours(1)), 0.0);
  EXPECT_FALSE(parse_retry_after("Sun, 06 Foo 1994 08:49:37 GMT", now).has_value());
  EXPECT_FALSE(parse_retry_after("Sun, 06 Nov 1994 25:49:37 GMT", now).has_value());
  EXPECT_FALSE(parse_retry_after("Sun, 06 Nov 1994 08:49:37 PST", now).has_value());
}

TEST(RetryAfter, Milliseconds) {
  EXPECT_DOUBLE_EQ(*parse_retry_after_ms("1500"), 1.5);
  EXPECT_FALSE(parse_retry_after_ms("x").has_value());
}

}  // namespace
}  // namespace pf::llm
