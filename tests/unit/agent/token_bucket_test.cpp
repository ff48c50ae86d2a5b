#include "agent/llm/token_bucket.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "agent/llm/endpoint_limiter.h"
#include "tests/unit/agent/fake_clock.h"

namespace pf::llm {
namespace {

using testing::FakeClock;

TEST(TokenBucket, StartsFullThenReservationsWaitForRefill) {
  FakeClock clock;
  auto t0 = clock.now();
  TokenBucket b(60, t0);  // 1 token per second, capacity 60
  EXPECT_DOUBLE_EQ(b.reserve(60, t0), 0.0);
  EXPECT_DOUBLE_EQ(b.reserve(1, t0), 1.0);  // one second of debt
  EXPECT_DOUBLE_EQ(b.reserve(2, t0), 3.0);  // queued behind the first
  auto t5 = t0 + std::chrono::seconds(5);
  EXPECT_DOUBLE_EQ(b.level(t5), 2.0);
  EXPECT_DOUBLE_EQ(b.level(t0 + std::chrono::hours(1)), 60.0);  // never above capacity
}

TEST(TokenBucket, OversizedRequestsAreClampedAndAdjustRefunds) {
  FakeClock clock;
  auto t0 = clock.now();
  TokenBucket b(600, t0);                        // 10 per second
  EXPECT_DOUBLE_EQ(b.reserve(10'000, t0), 0.0);  // clamped to the 600 capacity
  EXPECT_DOUBLE_EQ(b.reserve(100, t0), 10.0);
  b.adjust(150, t0);  // usage came back lower than estimated
  EXPECT_DOUBLE_EQ(b.level(t0), 50.0);
  b.adjust(-250, t0);  // or higher
  EXPECT_DOUBLE_EQ(b.level(t0), -200.0);
}

TEST(EndpointLimiter, RequestsPerMinuteMakesCallersWait) {
  FakeClock clock;
  EndpointLimiter limiter({4, 2, 0}, clock);  // 2 requests per minute
  {
    auto p = limiter.acquire(0, nullptr);
    ASSERT_TRUE(p);
  }
  {
    auto p = limiter.acquire(0, nullptr);
    ASSERT_TRUE(p);
  }
  EXPECT_TRUE(clock.sleeps().empty());
  {
    auto p = limiter.acquire(0, nullptr);
    ASSERT_TRUE(p);
  }
  ASSERT_EQ(clock.sleeps().size(), 1u);
  EXPECT_NEAR(clock.sleeps()[0], 30.0, 1e-6);  // one request refills in 30 s
}

TEST(EndpointLimiter, TokensPerMinuteCorrectedByUsage) {
  FakeClock clock;
  EndpointLimiter limiter({4, 0, 6000}, clock);  // 100 tokens per second
  {
    auto p = limiter.acquire(6000, nullptr);
    ASSERT_TRUE(p);
  }
  limiter.settle_tokens(6000, 1000);  // actually used 1000: 5000 refunded
  {
    auto p = limiter.acquire(5000, nullptr);
    ASSERT_TRUE(p);
  }
  EXPECT_TRUE(clock.sleeps().empty());
  {
    auto p = limiter.acquire(500, nullptr);
    ASSERT_TRUE(p);
  }
  ASSERT_EQ(clock.sleeps().size(), 1u);
  EXPECT_NEAR(clock.sleeps()[0], 5.0, 1e-6);
}

TEST(EndpointLimiter, NeverMoreThanMaxConcurrentInFlight) {
  SystemClock clock;
  EndpointLimiter limiter({3, 0, 0}, clock);
  std::atomic<int> now_in{0}, peak{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 12; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        auto p = limiter.acquire(0, nullptr);
        ASSERT_TRUE(p);
        int n = ++now_in;
        int seen = peak.load();
        while (n > seen && !peak.compare_exchange_weak(seen, n)) {
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        --now_in;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_LE(peak.load(), 3);
  EXPECT_GE(peak.load(), 2);  // the threads did overlap
  EXPECT_EQ(limiter.in_flight(), 0);
}

TEST(EndpointLimiter, CancelEndsAWaitForASlot) {
  SystemClock clock;
  EndpointLimiter limiter({1, 0, 0}, clock);
  auto held = limiter.acquire(0, nullptr);
  ASSERT_TRUE(held);
  CancelToken cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel.cancel();
  });
  auto start = std::chrono::steady_clock::now();
  auto p = limiter.acquire(0, &cancel);
  canceller.join();
  EXPECT_FALSE(p.has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(EndpointLimiter, CancelDuringRateWaitGivesTheReservationBack) {
  FakeClock clock;
  EndpointLimiter limiter({4, 1, 0}, clock);  // 1 request per minute
  {
    auto p = limiter.acquire(0, nullptr);
    ASSERT_TRUE(p);
  }
  CancelToken cancel;
  cancel.cancel();
  EXPECT_FALSE(limiter.acquire(0, &cancel).has_value());
  clock.advance(60);
  {
    auto p = limiter.acquire(0, nullptr);
    ASSERT_TRUE(p);
  }
  // Only the refill of the first request was needed: no sleep recorded.
  EXPECT_TRUE(clock.sleeps().empty());
}

}  // namespace
}  // namespace pf::llm
