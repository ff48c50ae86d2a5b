// Launch configuration of the reduction kernels: thread layout choice,
// vectorisation and block splitting, and the index mapping the kernel
// derives from it (emulated here) against naive reductions' element sets.
#include "evaluator/gpu/reduce_plan.h"

#include <gtest/gtest.h>

#include <set>

#include "evaluator/gpu/offset_calc.h"

namespace pf::gpu {
namespace {

std::vector<uint32_t> offsets(const PfOffsetCalc& oc, uint32_t linear) {
  std::vector<uint32_t> off(PF_MAX_OPERANDS, 0);
  for (int d = 0; d < oc.dims; ++d) {
    uint32_t q = divide(oc.sizes[d], linear);
    uint32_t r = linear - q * oc.sizes[d].divisor;
    linear = q;
    for (size_t k = 0; k < PF_MAX_OPERANDS; ++k) off[k] += r * oc.strides[d][k];
  }
  return off;
}

ReduceGeometry geometry(Shape shape, Strides strides, std::vector<bool> reduced) {
  ReduceGeometry g;
  g.shape = std::move(shape);
  g.strides = std::move(strides);
  g.reduced = std::move(reduced);
  g.in_size = 4;
  g.out_size = 4;
  g.vec = 4;
  g.in_address = 1 << 20;
  g.sm_count = 132;
  return g;
}

// Every (output, reduced index) pair visits the input element a naive loop
// would, and each input element is visited exactly once.
void expect_exact_cover(const ReduceGeometry& g, const ReduceConfig& c) {
  std::set<int64_t> seen;
  for (int64_t o = 0; o < c.n_out; ++o) {
    auto oo = offsets(c.out_calc, static_cast<uint32_t>(o));
    EXPECT_EQ(oo[0], static_cast<uint32_t>(o * 4)) << "outputs are contiguous";
    for (int64_t r = 0; r < c.n_red; ++r) {
      auto ro = offsets(c.red_calc, static_cast<uint32_t>(r));
      int64_t byte = oo[1] + ro[1];
      EXPECT_TRUE(seen.insert(byte).second) << "element at byte " << byte << " visited twice";
    }
  }
  EXPECT_EQ(static_cast<int64_t>(seen.size()), shape_numel(g.shape));
}

TEST(ReducePlan, RowReductionUsesInnerVectorisedLayout) {
  auto g = geometry({64, 1024}, {1024, 1}, {false, true});
  auto c = plan_reduce_launch(g);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(c->inner);
  EXPECT_TRUE(c->vectorize);
  EXPECT_EQ(c->n_out, 64);
  EXPECT_EQ(c->n_red, 1024);
  EXPECT_EQ(c->bx, 256);  // 1024 / 4 elements per thread
  EXPECT_EQ(c->bx * c->by, 512);
  EXPECT_EQ(c->grid_y, 1);
  expect_exact_cover(g, *c);
}

TEST(ReducePlan, ColumnReductionUsesOuterLayout) {
  auto g = geometry({4096, 256}, {256, 1}, {true, false});
  auto c = plan_reduce_launch(g);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->inner);
  EXPECT_FALSE(c->vectorize);
  EXPECT_EQ(c->bx, 32);
  EXPECT_EQ(c->grid_x, 8);
  expect_exact_cover(g, *c);
}

TEST(ReducePlan, WholeTensorReductionSplitsAcrossBlocks) {
  auto g = geometry({1 << 22}, {1}, {true});
  auto c = plan_reduce_launch(g);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->inner);
  EXPECT_EQ(c->n_out, 1);
  EXPECT_GT(c->grid_y, 1);
  EXPECT_EQ(c->red_per_block % (c->bx * 4), 0) << "slices stay vector-aligned";
  EXPECT_GE(c->grid_y * c->red_per_block, c->n_red);
  EXPECT_LT((c->grid_y - 1) * c->red_per_block, c->n_red) << "no empty block column";
}

TEST(ReducePlan, MiddleDimsAndPermutedInputsCoverEveryElement) {
  // mean over (2, 3) of NCHW: inner rows of H*W.
  auto nchw = geometry({2, 8, 5, 7}, {280, 35, 7, 1}, {false, false, true, true});
  auto c1 = plan_reduce_launch(nchw);
  ASSERT_TRUE(c1.ok());
  EXPECT_TRUE(c1->inner);
  EXPECT_EQ(c1->n_red, 35);
  expect_exact_cover(nchw, *c1);
  // Channel reduction (dim 1) of NCHW: outer columns.
  auto chan = geometry({2, 8, 5, 7}, {280, 35, 7, 1}, {false, true, false, false});
  auto c2 = plan_reduce_launch(chan);
  ASSERT_TRUE(c2.ok());
  EXPECT_FALSE(c2->inner);
  expect_exact_cover(chan, *c2);
  // A transposed input reducing its (strided) last logical dim.
  auto tr = geometry({6, 10}, {1, 6}, {false, true});
  auto c3 = plan_reduce_launch(tr);
  ASSERT_TRUE(c3.ok());
  EXPECT_FALSE(c3->inner);
  expect_exact_cover(tr, *c3);
}

TEST(ReducePlan, MisalignedRowsAreNotVectorised) {
  auto g = geometry({16, 1022}, {1022, 1}, {false, true});
  auto c = plan_reduce_launch(g);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->inner);
  EXPECT_FALSE(c->vectorize);
  auto offset = geometry({16, 1024}, {1024, 1}, {false, true});
  offset.in_address = (1 << 20) + 4;
  auto c2 = plan_reduce_launch(offset);
  ASSERT_TRUE(c2.ok());
  EXPECT_FALSE(c2->vectorize);
}

TEST(ReducePlan, ReducingEverythingOfAScalarIsOneElement) {
  auto g = geometry({}, {}, {});
  auto c = plan_reduce_launch(g);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->n_out, 1);
  EXPECT_EQ(c->n_red, 1);
}

// sum over dim 0 of a [0, 3] tensor: three outputs that fold nothing (the
// kernel writes the identity); planning must not divide by the empty dim.
TEST(ReducePlan, ReducingAnEmptyDimFoldsNothingIntoEachOutput) {
  for (bool contiguous_kept : {true, false}) {
    auto g = contiguous_kept ? geometry({0, 3}, {3, 1}, {true, false})
                             : geometry({3, 0}, {1, 3}, {false, true});
    auto c = plan_reduce_launch(g);
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->n_out, 3);
    EXPECT_EQ(c->n_red, 0);
    EXPECT_EQ(c->red_calc.dims, 0);
    EXPECT_EQ(c->grid_y, 1);
    EXPECT_GE(c->grid_x * (c->inner ? c->by : c->bx), 3) << "every output gets a thread";
    for (uint32_t o = 0; o < 3; ++o) EXPECT_EQ(offsets(c->out_calc, o)[0], o * 4);
  }
}

TEST(ReducePlan, AnEmptyOutputPlansNoWork) {
  auto g = geometry({0, 5}, {5, 1}, {false, true});
  auto c = plan_reduce_launch(g);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->n_out, 0);
  auto all = geometry({4, 0, 2}, {0, 2, 1}, {true, true, true});
  auto whole = plan_reduce_launch(all);
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(whole->n_out, 1);
  EXPECT_EQ(whole->n_red, 0);
}

}  // namespace
}  // namespace pf::gpu
