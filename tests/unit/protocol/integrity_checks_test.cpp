// Host-side integrity checks on CPU tensors: the trivial-output guard flags
// variants whose expected outputs a trivial kernel would match; poison
// counting recognises exactly the fills sandbox/cuda writes; input checksums.
#include "evaluator/protocol/integrity_checks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

namespace pf::protocol {
namespace {

Tensor random_tensor(DType dtype, const Shape& shape, uint64_t seed, double scale = 1.0) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> d(0.0, scale);
  std::vector<double> v(static_cast<size_t>(shape_numel(shape)));
  for (double& x : v) x = d(rng);
  return Tensor::from_doubles(dtype, shape, v);
}

const TrivialCheck& check(const std::vector<TrivialCheck>& checks, const std::string& kind) {
  for (const auto& c : checks) {
    if (c.kind == kind) return c;
  }
  ADD_FAILURE() << "no check " << kind;
  return checks.front();
}

TEST(TrivialOutputGuard, RandomOutputsAreNotTrivial) {
  Tensor in = random_tensor(DType::float32, {8, 16}, 1);
  Tensor expected = random_tensor(DType::float32, {8, 16}, 2);
  auto checks = trivial_output_guard({expected}, {in}, {"in_0"});
  ASSERT_EQ(checks.size(), 3u);
  for (const auto& c : checks) EXPECT_GT(c.level, -5) << c.kind;
}

TEST(TrivialOutputGuard, ZeroAndConstantOutputsAreCaught) {
  Tensor in = random_tensor(DType::float32, {4, 4}, 3);
  // An output that is (almost) all zeros: a kernel writing zeros passes.
  Tensor tiny = random_tensor(DType::float32, {4, 4}, 4, 1e-9);
  auto checks = trivial_output_guard({tiny}, {in}, {"in_0"});
  EXPECT_LE(check(checks, "zeros").level, -5);
  // A constant output: the mean passes exactly.
  Tensor seven = Tensor::from_doubles(DType::float32, {4, 4}, std::vector<double>(16, 7.0));
  checks = trivial_output_guard({seven}, {in}, {"in_0"});
  EXPECT_EQ(check(checks, "constant").level, kMinToleranceLevel);
  EXPECT_GT(check(checks, "zeros").level, -5);
}

TEST(TrivialOutputGuard, InputCopyNamesTheInput) {
  Tensor a = random_tensor(DType::float32, {4, 4}, 5);
  Tensor b = random_tensor(DType::float32, {4, 4}, 6);
  Tensor other = random_tensor(DType::float16, {2}, 7);
  auto checks = trivial_output_guard({b}, {a, b}, {"x", "y"});
  const TrivialCheck& copy = check(checks, "input_copy");
  EXPECT_TRUE(copy.applicable);
  EXPECT_EQ(copy.level, kMinToleranceLevel);
  EXPECT_EQ(copy.detail, "output 0 = y");
  // No input of the output's type: the check does not apply.
  checks = trivial_output_guard({b}, {other}, {"z"});
  EXPECT_FALSE(check(checks, "input_copy").applicable);
}

TEST(TrivialKind, RecognisesTrivialCandidates) {
  Tensor in = random_tensor(DType::float32, {3, 3}, 8);
  EXPECT_EQ(trivial_kind_of({Tensor::zeros(DType::float32, {3, 3})}, {in}), "zeros");
  EXPECT_EQ(trivial_kind_of({Tensor::from_doubles(DType::float32, {2}, {2.5, 2.5})}, {in}),
            "constant");
  EXPECT_EQ(trivial_kind_of({in}, {in}), "input_copy");
  EXPECT_EQ(trivial_kind_of({random_tensor(DType::float32, {3, 3}, 9)}, {in}), std::nullopt);
}

TEST(Poison, CountsExactlyTheFillPatterns) {
  Tensor f32 = Tensor::zeros(DType::float32, {4});
  uint32_t nan_bits = 0x7FC00000u, other_nan = 0x7FFFFFFFu;
  std::memcpy(f32.mutable_data(), &nan_bits, 4);
  std::memcpy(f32.mutable_data() + 4, &other_nan, 4);
  EXPECT_EQ(count_poison(f32), 1);  // a computed NaN is not the poison
  // Where the expected output is NaN itself, a NaN (any NaN) is not evidence.
  Tensor expected = Tensor::from_doubles(DType::float32, {4}, {std::nan(""), 1, 2, 3});
  EXPECT_EQ(count_poison(f32, 0xA5, &expected), 0);

  Tensor f16 = Tensor::zeros(DType::float16, {3});
  uint16_t h = 0x7E00;
  std::memcpy(f16.mutable_data() + 2, &h, 2);
  EXPECT_EQ(count_poison(f16), 1);

  Tensor bf = Tensor::zeros(DType::bfloat16, {2});
  uint16_t bh = 0x7FC0;
  std::memcpy(bf.mutable_data(), &bh, 2);
  std::memcpy(bf.mutable_data() + 2, &bh, 2);
  EXPECT_EQ(count_poison(bf), 2);

  Tensor i64 = Tensor::zeros(DType::int64, {3});
  std::memset(i64.mutable_data() + 8, 0xA5, 8);
  std::memset(i64.mutable_data() + 16, 0xA5, 7);  // one byte short: written
  EXPECT_EQ(count_poison(i64), 1);
  EXPECT_EQ(count_poison(Tensor::zeros(DType::float64, {5})), 0);
}

TEST(Checksums, CountChangedElements) {
  Tensor a = random_tensor(DType::float32, {2, 5}, 10);
  Tensor b = a.contiguous_copy();
  EXPECT_EQ(count_changed_elements(a, b), 0);
  EXPECT_TRUE(bitwise_equal(a, b));
  b.set(3, b.get(3) + 1);
  b.set(7, -0.0);
  EXPECT_EQ(count_changed_elements(a, b), 2);
  EXPECT_FALSE(bitwise_equal(a, b));
  EXPECT_EQ(count_changed_elements(a, Tensor::zeros(DType::float32, {10})), -1);
  EXPECT_EQ(count_changed_elements(a, Tensor::zeros(DType::float16, {2, 5})), -1);
}

}  // namespace
}  // namespace pf::protocol
