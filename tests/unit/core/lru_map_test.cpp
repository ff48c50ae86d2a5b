#include "common/lru_map.h"

#include <gtest/gtest.h>

#include <string>

namespace pf {
namespace {

TEST(LruMap, KeepsTheMostRecentlyUsedWithinItsBudget) {
  LruMap<std::string> m(10);
  m.put("a", "A", 4);
  m.put("b", "B", 4);
  ASSERT_NE(m.find("a"), nullptr);  // a is now the most recent
  m.put("c", "C", 4);               // 12 > 10: drops b, the least recent
  EXPECT_EQ(m.find("b"), nullptr);
  ASSERT_NE(m.find("a"), nullptr);
  EXPECT_EQ(*m.find("a"), "A");
  EXPECT_EQ(*m.find("c"), "C");
  EXPECT_EQ(m.size(), 2u);
  EXPECT_EQ(m.cost(), 8u);
}

TEST(LruMap, ReplacingAKeyReplacesItsCostAndRecency) {
  LruMap<int> m(10);
  m.put("a", 1, 3);
  m.put("b", 2, 3);
  m.put("a", 10, 6);  // replaces a (cost 3 -> 6) and makes it the most recent
  EXPECT_EQ(m.cost(), 9u);
  EXPECT_EQ(*m.find("a"), 10);
  m.put("c", 3, 1);  // 10 fits exactly
  EXPECT_EQ(m.size(), 3u);
  m.put("d", 4, 1);  // drops b, the least recent
  EXPECT_EQ(m.find("b"), nullptr);
  EXPECT_EQ(m.cost(), 8u);
}

TEST(LruMap, AnEntryBeyondTheBudgetIsNotKeptAndEvictsNothing) {
  LruMap<int> m(5);
  m.put("a", 1, 2);
  m.put("big", 2, 6);
  EXPECT_EQ(m.find("big"), nullptr);
  ASSERT_NE(m.find("a"), nullptr);
  // Replacing a key with an oversized value drops the old value too.
  m.put("a", 3, 9);
  EXPECT_EQ(m.find("a"), nullptr);
  EXPECT_EQ(m.cost(), 0u);
  m.put("x", 1, 1);
  m.clear();
  EXPECT_EQ(m.size(), 0u);
  EXPECT_EQ(m.cost(), 0u);
}

}  // namespace
}  // namespace pf
