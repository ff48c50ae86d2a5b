// Host-side indexing of the baseline kernels: the fast divider, dim
// coalescing, broadcast strides and offset calculators, checked against
// naive strided indexing (the device runs the same arithmetic).
#include "evaluator/gpu/offset_calc.h"

#include <gtest/gtest.h>

#include <random>

namespace pf::gpu {
namespace {

// The device's pf_offsets, on the host.
std::vector<uint32_t> offsets(const PfOffsetCalc& oc, uint32_t linear, size_t nops) {
  std::vector<uint32_t> off(nops, 0);
  for (int d = 0; d < oc.dims; ++d) {
    uint32_t q = divide(oc.sizes[d], linear);
    uint32_t r = linear - q * oc.sizes[d].divisor;
    linear = q;
    for (size_t k = 0; k < nops; ++k) off[k] += r * oc.strides[d][k];
  }
  return off;
}

// Byte offset of row-major element i in (shape, strides).
int64_t naive_offset(const Shape& shape, const Strides& strides, int64_t i, size_t es) {
  int64_t off = 0;
  for (size_t d = shape.size(); d-- > 0;) {
    off += (i % shape[d]) * strides[d];
    i /= shape[d];
  }
  return off * static_cast<int64_t>(es);
}

TEST(Divider, MatchesIntegerDivision) {
  std::mt19937 rng(7);
  std::vector<uint32_t> divisors = {
      1, 2, 3, 5, 7, 31, 32, 33, 768, 1000, 65535, 65536, 123457, (1u << 30) + 3, (1u << 31) - 1};
  for (uint32_t d : divisors) {
    PfDivider div = make_divider(d);
    std::vector<uint32_t> ns = {0, 1, d - 1, d, d + 1, (1u << 31) - 1};
    for (int i = 0; i < 2000; ++i) ns.push_back(rng() & 0x7FFFFFFFu);
    for (uint32_t n : ns) ASSERT_EQ(divide(div, n), n / d) << n << " / " << d;
  }
}

TEST(Coalesce, MergesContiguousDimsAndDropsOnes) {
  Layout l = coalesce(Layout{{2, 1, 3, 4}, {{12, 99, 4, 1}}});
  EXPECT_EQ(l.shape, (Shape{24}));
  EXPECT_EQ(l.strides[0], (Strides{1}));
  // A transposed operand keeps the dims apart.
  Layout t = coalesce(Layout{{3, 4}, {{4, 1}, {1, 3}}});
  EXPECT_EQ(t.shape, (Shape{3, 4}));
  // Broadcast dims merge when every operand agrees.
  Layout b = coalesce(Layout{{2, 3, 4}, {{12, 4, 1}, {0, 0, 1}}});
  EXPECT_EQ(b.shape, (Shape{6, 4}));
  EXPECT_EQ(b.strides[1], (Strides{0, 1}));
  Layout scalar = coalesce(Layout{{}, {{}}});
  EXPECT_TRUE(scalar.shape.empty());
}

TEST(BroadcastStrides, RightAlignsAndZeroesSizeOneDims) {
  EXPECT_EQ(broadcast_strides({3, 1}, {1, 1}, {2, 3, 5}), (Strides{0, 1, 0}));
  EXPECT_EQ(broadcast_strides({}, {}, {4, 4}), (Strides{0, 0}));
}

TEST(OffsetCalc, ReproducesStridedIndexing) {
  // out contiguous [2, 3, 4, 5]; in0 permuted; in1 broadcast along dim 1; in2 a 0-d scalar.
  Shape shape = {2, 3, 4, 5};
  std::vector<Strides> strides = {{60, 20, 5, 1}, {1, 2, 6, 24}, {20, 0, 5, 1}, {0, 0, 0, 0}};
  std::vector<size_t> sizes = {4, 2, 8, 1};
  auto oc = make_offset_calc(Layout{shape, strides}, sizes);
  ASSERT_TRUE(oc.ok()) << oc.error().message;
  for (int64_t i = 0; i < shape_numel(shape); ++i) {
    auto off = offsets(*oc, static_cast<uint32_t>(i), 4);
    for (size_t k = 0; k < 4; ++k) {
      ASSERT_EQ(off[k], naive_offset(shape, strides[k], i, sizes[k]))
          << "element " << i << " operand " << k;
    }
  }
}

TEST(OffsetCalc, RejectsWhatThirtyTwoBitKernelsCannotIndex) {
  auto too_many_dims = make_offset_calc(
      Layout{{2, 2, 2, 2, 2, 2, 2, 2, 2}, {{512, 1, 2, 4, 8, 16, 32, 64, 128}}}, {4});
  ASSERT_FALSE(too_many_dims.ok());
  EXPECT_EQ(too_many_dims.error().code, ErrorCode::unsupported);
  auto huge = make_offset_calc(Layout{{1 << 20, 1 << 11}, {{1 << 11, 1}}}, {4});
  EXPECT_FALSE(huge.ok());
  auto wide_span = make_offset_calc(Layout{{2, 2}, {{int64_t{1} << 30, 1}}}, {4});
  EXPECT_FALSE(wide_span.ok());
  auto negative = make_offset_calc(Layout{{3}, {{-1}}}, {4});
  EXPECT_FALSE(negative.ok());
}

TEST(OffsetCalc, AZeroSizeLayoutIndexesNothing) {
  auto empty = make_offset_calc(Layout{{4, 0, 3}, {{0, 3, 1}, {3, 1, 12}}}, {4, 2});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->dims, 0);
}

}  // namespace
}  // namespace pf::gpu
