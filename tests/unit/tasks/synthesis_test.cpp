#include "evaluator/tasks/synthesis.h"

#include <gtest/gtest.h>

#include <cmath>

#include "evaluator/core/half.h"

namespace pf {
namespace {

InputMeta meta(DType dt, Shape shape, std::optional<double> mean, std::optional<double> std) {
  InputMeta m;
  m.name = "in_0";
  m.dtype = dt;
  m.shape = std::move(shape);
  m.mean = mean;
  m.std = std;
  return m;
}

double sample_std(const std::vector<double>& v, double* mean_out) {
  double mean = 0;
  for (double x : v) mean += x;
  mean /= v.size();
  double var = 0;
  for (double x : v) var += (x - mean) * (x - mean);
  *mean_out = mean;
  return std::sqrt(var / v.size());
}

TEST(Synthesis, DeterministicPerSeedRoundVariantAndIndex) {
  auto m = meta(DType::float32, {64}, 1.0, 2.0);
  SynthesisOptions o;
  auto a = synthesize_input(m, "v", 0, o).to_doubles();
  EXPECT_EQ(a, synthesize_input(m, "v", 0, o).to_doubles());
  EXPECT_NE(a, synthesize_input(m, "v", 1, o).to_doubles());
  EXPECT_NE(a, synthesize_input(m, "w", 0, o).to_doubles());
  o.round = 1;
  EXPECT_NE(a, synthesize_input(m, "v", 0, o).to_doubles());
}

TEST(Synthesis, GraphNetRuleScalesStdByPointTwo) {
  auto v = synthesize_input(meta(DType::float64, {20000}, 3.0, 5.0), "v", 0, {}).to_doubles();
  double mean;
  double sd = sample_std(v, &mean);
  EXPECT_NEAR(mean, 3.0, 0.05);
  EXPECT_NEAR(sd, 1.0, 0.05);  // 5 * 0.2
}

TEST(Synthesis, ZeroStdIsNotConstantUnlessGraphnetRuleChosen) {
  auto m = meta(DType::float64, {20000}, 4.0, 0.0);
  double mean;
  double sd = sample_std(synthesize_input(m, "v", 0, {}).to_doubles(), &mean);
  EXPECT_NEAR(sd, 0.08, 0.005);  // std = 0.1 * |mean|, then * 0.2
  auto zero = meta(DType::float64, {20000}, 0.0, 0.0);
  sd = sample_std(synthesize_input(zero, "v", 0, {}).to_doubles(), &mean);
  EXPECT_NEAR(sd, 0.2, 0.01);  // std = 1, then * 0.2
  SynthesisOptions g;
  g.zero_std = ZeroStdRule::graphnet;
  for (double x : synthesize_input(m, "v", 0, g).to_doubles()) EXPECT_EQ(x, 4.0);
}

TEST(Synthesis, ClampsToBoundsAndToHundred) {
  auto m = meta(DType::float32, {1000}, 0.0, 50.0);
  m.min_val = -1;
  m.max_val = 2;
  for (double x : synthesize_input(m, "v", 0, {}).to_doubles()) {
    EXPECT_GE(x, -1);
    EXPECT_LE(x, 2);
  }
  auto big = meta(DType::float32, {100}, 1000.0, 1.0);
  for (double x : synthesize_input(big, "v", 0, {}).to_doubles()) EXPECT_EQ(x, 100.0);
}

TEST(Synthesis, IntegersUniformInBoundsBoolsAndLiteralData) {
  auto m = meta(DType::int64, {5000}, std::nullopt, std::nullopt);
  m.min_val = 3;
  m.max_val = 7;
  Tensor t = synthesize_input(m, "v", 0, {});
  std::vector<int> seen(10, 0);
  for (int64_t i = 0; i < t.numel(); ++i) {
    int64_t x = t.get_int(i);
    ASSERT_GE(x, 3);
    ASSERT_LE(x, 7);
    seen[x]++;
  }
  for (int k = 3; k <= 7; ++k) EXPECT_GT(seen[k], 800);
  auto b = synthesize_input(meta(DType::boolean, {10000}, std::nullopt, std::nullopt), "v", 0, {});
  double ones = 0;
  for (double x : b.to_doubles()) ones += x;
  EXPECT_NEAR(ones / 10000, 0.3085, 0.02);  // P(N(0,1) > 0.5)
  auto d = meta(DType::float16, {2}, 0.0, 0.0);
  d.data = std::vector<double>{0.1, -3};
  EXPECT_EQ(synthesize_input(d, "v", 0, {}).to_doubles(),
            (std::vector<double>{0.0999755859375, -3}));
}

TEST(Synthesis, EveryFloatingDtypeRoundsTheSameDoubleDraw) {
  // One stream, four dtypes: each element is the float64 draw rounded once
  // (odd sizes: the last Box-Muller pair is half used).
  auto m64 = meta(DType::float64, {1001}, 0.5, 3.0);
  std::vector<double> exact = synthesize_input(m64, "v", 0, {}).to_doubles();
  for (DType dt : {DType::float32, DType::float16, DType::bfloat16}) {
    auto m = m64;
    m.dtype = dt;
    std::vector<double> got = synthesize_input(m, "v", 0, {}).to_doubles();
    ASSERT_EQ(got.size(), exact.size());
    for (size_t i = 0; i < got.size(); ++i) {
      double want = dt == DType::float32   ? static_cast<double>(static_cast<float>(exact[i]))
                    : dt == DType::float16 ? round_to_half(exact[i])
                                           : round_to_bfloat16(exact[i]);
      ASSERT_EQ(got[i], want) << dtype_name(dt) << " element " << i;
    }
  }
}

TEST(Synthesis, IntegerBoundsAreCutToTheDtype) {
  auto m = meta(DType::uint8, {20000}, std::nullopt, std::nullopt);
  m.min_val = -5;
  m.max_val = 300;
  Tensor t = synthesize_input(m, "v", 0, {});
  std::vector<int> seen(256, 0);
  for (int64_t i = 0; i < t.numel(); ++i) seen[static_cast<size_t>(t.get_int(i))]++;
  EXPECT_GT(seen[0], 0);
  EXPECT_GT(seen[255], 0);  // no wrap: 256..300 are not folded onto 0..44
  EXPECT_LT(seen[10], 200);
  auto wide = meta(DType::int64, {4000}, std::nullopt, std::nullopt);
  wide.min_val = -1e30;  // the whole int64 range
  wide.max_val = 1e30;
  Tensor w = synthesize_input(wide, "v", 0, {});
  int negative = 0;
  for (int64_t i = 0; i < w.numel(); ++i) negative += w.get_int(i) < 0;
  EXPECT_NEAR(negative, 2000, 200);
  auto flipped = meta(DType::int32, {1000}, std::nullopt, std::nullopt);
  flipped.min_val = 9;  // bounds given the wrong way round are swapped
  flipped.max_val = 4;
  Tensor f = synthesize_input(flipped, "v", 0, {});
  for (int64_t i = 0; i < f.numel(); ++i) {
    ASSERT_GE(f.get_int(i), 4);
    ASSERT_LE(f.get_int(i), 9);
  }
}

}  // namespace
}  // namespace pf
