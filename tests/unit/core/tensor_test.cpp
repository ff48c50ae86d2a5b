#include "evaluator/core/tensor.h"

#include <gtest/gtest.h>

namespace pf {
namespace {

TEST(Tensor, ViewsShareStorageAndRespectStrides) {
  Tensor t = Tensor::from_doubles(DType::float32, {2, 3}, {0, 1, 2, 3, 4, 5});
  // Transposed view: shape [3, 2], strides [1, 3].
  Tensor tt = Tensor::view_of(t, {3, 2}, {1, 3}, 0);
  EXPECT_FALSE(tt.is_contiguous());
  EXPECT_EQ(tt.to_doubles(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  tt.set(1, 42);  // element [0, 1] of the view is t[1, 0]
  EXPECT_EQ(t.get(3), 42);
  EXPECT_TRUE(tt.shares_storage(t));
  Tensor c = tt.contiguous_copy();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_FALSE(c.shares_storage(t));
}

TEST(Tensor, RoundsToDtypeOnStore) {
  Tensor h = Tensor::from_doubles(DType::float16, {1}, {0.1});
  EXPECT_EQ(h.get(0), 0.0999755859375);
  Tensor i = Tensor::from_doubles(DType::int32, {2}, {-2.7, 2.7});
  EXPECT_EQ(i.get(0), -2);
  EXPECT_EQ(i.get(1), 2);
  Tensor b = Tensor::from_doubles(DType::boolean, {2}, {0.0, -0.5});
  EXPECT_EQ(b.get(0), 0);
  EXPECT_EQ(b.get(1), 1);
}

TEST(Tensor, Int64StaysExact) {
  Tensor t = Tensor::zeros(DType::int64, {1});
  t.set_int(0, (int64_t{1} << 60) + 1);
  EXPECT_EQ(t.get_int(0), (int64_t{1} << 60) + 1);
  EXPECT_EQ(t.to_dtype(DType::int64).get_int(0), (int64_t{1} << 60) + 1);
}

}  // namespace
}  // namespace pf
