// Indexing writes whose PyTorch result would depend on which duplicate wins:
// index_put without accumulate refuses duplicate positions carrying
// different values (PyTorch's CPU raises nothing there, so no golden fixture
// can hold this), writes equal duplicates, and sums duplicates with
// accumulate (halves rounded once, which PyTorch's CPU does not do either).
#include <gtest/gtest.h>

#include "tests/unit/ops/op_runner.h"

namespace pf {
namespace {

using testing_ops::iota;
using testing_ops::run_op;

Tensor int64s(const Shape& shape, const std::vector<double>& v) {
  return Tensor::from_doubles(DType::int64, shape, v);
}

Arg indices(std::vector<Arg> items) {
  return Arg::make_tuple(std::move(items));
}

TEST(IndexPut, RefusesDuplicatesThatDecideTheResult) {
  // x[[1, 1]] = [5, 6]: PyTorch leaves which of 5 and 6 lands unspecified.
  auto r =
      run_op("torch.index_put",
             {iota({3}), int64s({2}, {1, 1}), Tensor::from_doubles(DType::float32, {2}, {5, 6})},
             {Arg::make_value(0), indices({Arg::make_value(1)}), Arg::make_value(2)});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("write the same element with different values"),
            std::string::npos)
      << r.error().message;
}

TEST(IndexPut, WritesDuplicatesOfOneValue) {
  auto r =
      run_op("torch.index_put",
             {iota({3}), int64s({3}, {2, -1, 0}), Tensor::from_doubles(DType::float32, {1}, {9})},
             {Arg::make_value(0), indices({Arg::make_value(1)}), Arg::make_value(2)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outputs[0].to_doubles(), (std::vector<double>{9, 1, 9}));
}

TEST(IndexPut, AccumulatesDuplicates) {
  auto r = run_op("Tensor.index_put_",
                  {iota({2, 2}), int64s({3}, {1, 1, 0}), int64s({3}, {0, 0, 1}),
                   Tensor::from_doubles(DType::float32, {3}, {10, 20, 40})},
                  {Arg::make_value(0), indices({Arg::make_value(1), Arg::make_value(2)}),
                   Arg::make_value(3), Arg::make_bool(true)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outputs[0].to_doubles(), (std::vector<double>{0, 41, 32, 3}));
}

TEST(IndexPut, AccumulatesHalvesWithOneRounding) {
  // 1 + 3 x 0.0004 in float16: each add alone rounds back to 1 (half an ulp
  // of 1 is 0.000488); the sum rounded once is the next half, 1.000977.
  // PyTorch's CUDA kernel sums in float and rounds once; the GPU baseline
  // does, and an order of atomic adds cannot change it.
  auto r = run_op("torch.index_put",
                  {Tensor::from_doubles(DType::float16, {2}, {1, 1}), int64s({3}, {0, 0, 0}),
                   Tensor::from_doubles(DType::float16, {3}, {0.0004, 0.0004, 0.0004})},
                  {Arg::make_value(0), indices({Arg::make_value(1)}), Arg::make_value(2),
                   Arg::make_bool(true)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outputs[0].to_doubles(), (std::vector<double>{1.0009765625, 1}));
}

TEST(IndexPut, RefusesBoolMasksAndNonTensorIndices) {
  Tensor mask = Tensor::from_doubles(DType::boolean, {3}, {1, 0, 1});
  auto r = run_op("torch.index_put", {iota({3}), mask, iota({2})},
                  {Arg::make_value(0), indices({Arg::make_value(1)}), Arg::make_value(2)});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("int64"), std::string::npos) << r.error().message;
  r = run_op("torch.index_put", {iota({3}), iota({1})},
             {Arg::make_value(0), indices({Arg::make_int(1)}), Arg::make_value(1)});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("tensors or None"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace pf
