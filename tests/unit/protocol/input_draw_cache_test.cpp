// The worker's input-draw memo (input_draw_cache.h): a draw is found only
// under exactly the variant content and options it was made with, comes back
// as a deep copy (an evaluation that writes into its inputs cannot change the
// next evaluation's), and the byte budget holds.
#include "evaluator/protocol/input_draw_cache.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pf::protocol {
namespace {

TaskVariant variant() {
  TaskVariant v;
  v.name = "m.s1-2";
  v.source = "def forward(x):\n    return (x + 1,)\n";
  InputMeta in;
  in.name = "x";
  in.shape = {4};
  in.mean = 0.0;
  in.std = 1.0;
  v.inputs.push_back(in);
  return v;
}

InputDraw draw_of(double value, int64_t n) {
  InputDraw d;
  d.inputs.push_back(Tensor::from_doubles(DType::float32, {n}, std::vector<double>(n, value)));
  d.outputs.push_back(Tensor::from_doubles(DType::float32, {n}, std::vector<double>(n, value + 1)));
  return d;
}

TEST(InputDrawCache, KeyCoversVariantContentAndOptions) {
  const TaskVariant v = variant();
  SynthesisOptions so;
  const std::string k = InputDrawCache::key(v, so);
  EXPECT_EQ(k, InputDrawCache::key(variant(), so));
  SynthesisOptions other = so;
  other.seed = 1;
  EXPECT_NE(k, InputDrawCache::key(v, other));
  other = so;
  other.round = 1;
  EXPECT_NE(k, InputDrawCache::key(v, other));
  other = so;
  other.zero_std = ZeroStdRule::graphnet;
  EXPECT_NE(k, InputDrawCache::key(v, other));
  TaskVariant changed = v;
  changed.source = "def forward(x):\n    return (x + 2,)\n";
  EXPECT_NE(k, InputDrawCache::key(changed, so));
  changed = v;
  changed.inputs[0].std = 2.0;
  EXPECT_NE(k, InputDrawCache::key(changed, so));
  // Same name, other content: never the same draw.
  changed = v;
  changed.inputs[0].shape = {5};
  EXPECT_NE(k, InputDrawCache::key(changed, so));
  // JSON writes inf and nan alike; the key must not.
  TaskVariant inf = v, nan = v;
  inf.inputs[0].data = std::vector<double>{1, 2, 3, std::numeric_limits<double>::infinity()};
  nan.inputs[0].data = std::vector<double>{1, 2, 3, std::nan("")};
  EXPECT_NE(InputDrawCache::key(inf, so), InputDrawCache::key(nan, so));
}

TEST(InputDrawCache, HandsOutDeepCopies) {
  InputDrawCache cache(1 << 20);
  EXPECT_FALSE(cache.find("k").has_value());
  cache.insert("k", draw_of(3, 4));
  auto first = cache.find("k");
  ASSERT_TRUE(first.has_value());
  first->inputs[0].set_int(0, 99);  // an evaluation writing into its inputs
  auto second = cache.find("k");
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->inputs[0].get_int(0), 3);
  EXPECT_FALSE(second->inputs[0].shares_storage(first->inputs[0]));
  EXPECT_EQ(second->outputs[0].get_int(3), 4);
}

TEST(InputDrawCache, KeepsToItsBudgetDroppingTheLeastRecentlyUsed) {
  const int64_t n = 1000;  // 8000 bytes per draw (inputs + outputs, float32)
  InputDrawCache cache(20000);
  cache.insert("a", draw_of(1, n));
  cache.insert("b", draw_of(2, n));
  EXPECT_EQ(cache.bytes(), 16000u);
  ASSERT_TRUE(cache.find("a").has_value());  // "b" is now the least recent
  cache.insert("c", draw_of(3, n));
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_LE(cache.bytes(), 20000u);
  EXPECT_TRUE(cache.find("a").has_value());
  EXPECT_FALSE(cache.find("b").has_value());
  EXPECT_TRUE(cache.find("c").has_value());
  cache.insert("huge", draw_of(4, 4 * n));  // larger than the budget: not kept
  EXPECT_FALSE(cache.find("huge").has_value());
  EXPECT_EQ(cache.size(), 2u);
  cache.insert("a", draw_of(5, n));  // replacing an entry keeps the count right
  EXPECT_EQ(cache.bytes(), 16000u);
  EXPECT_EQ(cache.find("a")->inputs[0].get_int(0), 5);
}

}  // namespace
}  // namespace pf::protocol
