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

TEST(ReducePlan, LongColumnReductionSplitsOverThreadsWithSharedMemory) {
  auto g = geometry({4096, 256}, {256, 1}, {true, false});
  auto c = plan_reduce_launch(g);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->serial);
  EXPECT_GT(c->by, 1);
  EXPECT_EQ(c->smem_bytes, int64_t{c->bx} * c->by * 32) << "one 32-byte slot per thread";
}

// sum(dim=1) of [1, 2, 64, 64, 48] (a split-attention sum): two values per
// output. Splitting them over threads costs a barrier and a shared-memory
// tree for one add; one thread folds each output, four outputs at a time.
TEST(ReducePlan, ShortColumnReductionIsFoldedByOneThreadPerVectorOfOutputs) {
  auto g = geometry({1, 2, 64, 64, 48}, {393216, 196608, 3072, 48, 1},
                    {false, true, false, false, false});
  auto c = plan_reduce_launch(g);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_FALSE(c->inner);
  EXPECT_TRUE(c->serial);
  EXPECT_EQ(c->out_vec, PF_REDUCE_OUT_VEC);
  EXPECT_EQ(c->by, 1);
  EXPECT_EQ(c->smem_bytes, 0);
  EXPECT_EQ(c->grid_y, 1);
  EXPECT_EQ(c->grid_x * c->bx * c->out_vec, c->n_out) << "one thread per four outputs";
  expect_exact_cover(g, *c);
  // The kernel's loads: the four outputs of a thread are consecutive input
  // elements and every (output group, reduced index) address is 16-byte aligned.
  for (int64_t o = 0; o < c->n_out; o += c->out_vec) {
    auto base = offsets(c->out_calc, static_cast<uint32_t>(o))[1];
    for (int j = 1; j < c->out_vec; ++j) {
      ASSERT_EQ(offsets(c->out_calc, static_cast<uint32_t>(o + j))[1], base + 4 * j);
    }
    for (int64_t r = 0; r < c->n_red; ++r) {
      ASSERT_EQ((base + offsets(c->red_calc, static_cast<uint32_t>(r))[1]) % 16, 0u);
    }
  }
}

// mean(dim=1) of [1, 196, 384] (a mean over tokens): 196 values for each
// of 384 outputs are split over the block's threads, not folded one thread
// per output (1.8x PyTorch's time on the H200 when folded).
TEST(ReducePlan, ColumnReductionOfSixteenOrMoreValuesSplitsOverThreads) {
  auto g = geometry({1, 196, 384}, {75264, 384, 1}, {false, true, false});
  auto c = plan_reduce_launch(g);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_FALSE(c->inner);
  EXPECT_FALSE(c->serial);
  EXPECT_GT(c->by, 1);
  expect_exact_cover(g, *c);
}

TEST(ReducePlan, ShortColumnReductionsThatCannotLoadVectorsTakeOneOutputPerThread) {
  // Kept fastest dim of 6: a group of four outputs would straddle rows.
  auto rows = geometry({3, 5, 6}, {30, 6, 1}, {false, true, false});
  // Misaligned start.
  auto shifted = geometry({2, 64}, {64, 1}, {true, false});
  shifted.in_address += 4;
  // The outputs' fastest dim is strided in the input (a transposed view).
  auto transposed = geometry({64, 3, 8}, {1, 512, 64}, {false, true, false});
  for (const auto& g : {rows, shifted, transposed}) {
    auto c = plan_reduce_launch(g);
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_TRUE(c->serial);
    EXPECT_EQ(c->out_vec, 1);
    EXPECT_GE(c->grid_x * c->bx, c->n_out);
    expect_exact_cover(g, *c);
  }
}

// A row of 7 (a mean over the last dim of [1000, 7]): a 4-lane slice of a
// warp per row, 8 rows per warp, no shared memory.
TEST(ReducePlan, RowsShorterThanAWarpShareOneWarp) {
  auto g = geometry({1000, 7}, {7, 1}, {false, true});
  auto c = plan_reduce_launch(g);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->inner);
  EXPECT_EQ(c->bx, 4);
  EXPECT_EQ(c->bx * c->by % 32, 0) << "whole warps: the shuffles use a full mask";
  EXPECT_GE(c->grid_x * c->by, 1000);
  EXPECT_EQ(c->smem_bytes, 0);
  expect_exact_cover(g, *c);
  // Few short rows still fill one warp.
  auto few = geometry({3, 8}, {8, 1}, {false, true});
  auto f = plan_reduce_launch(few);
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(f->vectorize);
  EXPECT_EQ(f->bx, 2);
  EXPECT_EQ(f->by, 16);
  // Rows longer than a warp's share keep multi-warp rows and their slots.
  auto lng = geometry({2, 4096}, {4096, 1}, {false, true});
  auto l = plan_reduce_launch(lng);
  ASSERT_TRUE(l.ok());
  EXPECT_GT(l->bx, 32);
  EXPECT_EQ(l->smem_bytes, l->bx / 32 * l->by * 32);
}

TEST(ReducePlan, WholeTensorReductionSplitsAcrossBlocks) {
  auto g = geometry({1 << 22}, {1}, {true});
  auto c = plan_reduce_launch(g);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->inner);
  EXPECT_EQ(c->n_out, 1);
  EXPECT_GT(c->grid_y, 1);
  EXPECT_EQ(c->red_per_block % (int64_t{c->bx} * 4), 0) << "slices stay vector-aligned";
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
    EXPECT_GE(c->grid_x * (c->inner ? c->by : c->bx * c->out_vec), 3)
        << "every output gets a thread";
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
