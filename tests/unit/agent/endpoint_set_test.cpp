#include "agent/llm/endpoint_set.h"

#include <gtest/gtest.h>

#include "tests/unit/agent/fake_clock.h"

namespace pf::llm {
namespace {

TEST(EndpointSet, LeastBusyFirstThenRoundRobin) {
  auto clock = std::make_shared<testing::FakeClock>();
  EndpointSet set({"http://a", "http://b", "http://c"}, clock);
  auto p1 = set.acquire();
  auto p2 = set.acquire();
  auto p3 = set.acquire();
  EXPECT_EQ(p1.url, "http://a");
  EXPECT_EQ(p2.url, "http://b");
  EXPECT_EQ(p3.url, "http://c");
  set.release(p2.index, false);
  EXPECT_EQ(set.acquire().url, "http://b") << "the only idle server";
}

TEST(EndpointSet, AFailedServerCoolsDownWhileAnotherIsHealthy) {
  auto clock = std::make_shared<testing::FakeClock>();
  EndpointSet set({"http://a", "http://b"}, clock, 30);
  auto a = set.acquire();
  ASSERT_EQ(a.url, "http://a");
  set.release(a.index, true);
  EXPECT_TRUE(set.other_healthy(a.index));
  for (int i = 0; i < 3; ++i) {
    auto p = set.acquire();
    EXPECT_EQ(p.url, "http://b");
    set.release(p.index, false);
  }
  clock->advance(31);
  auto p = set.acquire();
  auto q = set.acquire();
  EXPECT_NE(p.url, q.url) << "a is back after its cool-down";
}

TEST(EndpointSet, AllDownPicksTheFirstToRecover) {
  auto clock = std::make_shared<testing::FakeClock>();
  EndpointSet set({"http://a", "http://b"}, clock, 30);
  auto a = set.acquire();
  set.release(a.index, true);
  clock->advance(5);
  auto b = set.acquire();
  set.release(b.index, true);
  EXPECT_FALSE(set.other_healthy(b.index));
  auto p = set.acquire(b.index);
  EXPECT_EQ(p.url, "http://a");
  EXPECT_FALSE(p.healthy);
}

}  // namespace
}  // namespace pf::llm
