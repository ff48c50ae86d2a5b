// Copies and indexing: exact element movement for every dtype, fresh storage,
// and errors (bad index values included) that name the op and the problem.
#include <gtest/gtest.h>

#include "tests/unit/ops/op_runner.h"

namespace pf {
namespace {

using testing_ops::iota;
using testing_ops::ints;
using testing_ops::run_op;

Arg v(int i) { return Arg::make_value(i); }
Arg n(int64_t i) { return Arg::make_int(i); }

Tensor one(const std::string& spelling, const std::vector<Tensor>& in, std::vector<Arg> args,
           std::vector<std::pair<std::string, Arg>> kw = {}) {
  auto r = run_op(spelling, in, std::move(args), std::move(kw));
  EXPECT_TRUE(r.ok()) << spelling << ": " << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return Tensor::zeros(DType::float32, {0});
  EXPECT_EQ(r->outputs[0].shape(), r->types[0].shape);
  EXPECT_EQ(r->outputs[0].dtype(), r->types[0].dtype);
  return r->outputs[0];
}

std::string error_of(const std::string& spelling, const std::vector<Tensor>& in,
                     std::vector<Arg> args, std::vector<std::pair<std::string, Arg>> kw = {}) {
  auto r = run_op(spelling, in, std::move(args), std::move(kw));
  return r.ok() ? std::string("<no error>") : r.error().message;
}

std::vector<int64_t> int_values(const Tensor& t) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.get_int(i));
  return out;
}

TEST(CatStack, PromotesAndKeepsInt64Exact) {
  Tensor big = Tensor::zeros(DType::int64, {2});
  big.set_int(0, (int64_t{1} << 60) + 1);
  big.set_int(1, -((int64_t{1} << 59) + 3));
  Tensor small = iota({1}, DType::int32);
  Tensor c = one("torch.cat", {big, small}, {Arg::make_list({v(0), v(1)})});
  EXPECT_EQ(c.dtype(), DType::int64);
  EXPECT_EQ(int_values(c), (std::vector<int64_t>{(int64_t{1} << 60) + 1, -((int64_t{1} << 59) + 3), 0}));
  EXPECT_FALSE(c.shares_storage(big));
  Tensor f = one("torch.cat", {iota({2}, DType::float16), iota({1}, DType::float32)},
                 {Arg::make_list({v(0), v(1)})});
  EXPECT_EQ(f.dtype(), DType::float32);
  std::string err = error_of("torch.cat", {iota({2, 3}), iota({2, 4})}, {Arg::make_list({v(0), v(1)})});
  EXPECT_NE(err.find("[2, 3]"), std::string::npos) << err;
  EXPECT_NE(err.find("[2, 4]"), std::string::npos) << err;
  Tensor s = one("torch.stack", {iota({2}), iota({2})}, {Arg::make_list({v(0), v(1)}), n(-1)});
  EXPECT_EQ(s.shape(), (Shape{2, 2}));
  EXPECT_EQ(s.to_doubles(), (std::vector<double>{0, 0, 1, 1}));
}

TEST(Pad, ModesAndCropping) {
  Tensor x = iota({1, 4});  // 0 1 2 3
  auto pad = [&](std::vector<int64_t> p, const char* mode) {
    return one("torch.nn.functional.pad", {x}, {v(0), ints(std::move(p)), Arg::make_string(mode)})
        .to_doubles();
  };
  EXPECT_EQ(pad({2, 1}, "reflect"), (std::vector<double>{2, 1, 0, 1, 2, 3, 2}));
  EXPECT_EQ(pad({2, 1}, "replicate"), (std::vector<double>{0, 0, 0, 1, 2, 3, 3}));
  EXPECT_EQ(pad({2, 1}, "circular"), (std::vector<double>{2, 3, 0, 1, 2, 3, 0}));
  EXPECT_EQ(pad({-1, 1}, "constant"), (std::vector<double>{1, 2, 3, 0}));
  Tensor valued = one("torch._C._nn.pad", {x}, {v(0), ints({1, 0}), Arg::make_string("constant"),
                                                Arg::make_real(-2.5)});
  EXPECT_EQ(valued.get(0), -2.5);
  EXPECT_NE(error_of("torch.nn.functional.pad", {x}, {v(0), ints({4, 0}), Arg::make_string("reflect")})
                .find("too large"),
            std::string::npos);
  EXPECT_NE(error_of("torch.nn.functional.pad", {x}, {v(0), ints({1}), Arg::make_string("constant")})
                .find("even"),
            std::string::npos);
}

TEST(CopyOps, RollFlipRepeatValues) {
  Tensor x = iota({2, 3});
  EXPECT_EQ(one("torch.roll", {x}, {v(0), ints({1}), ints({1})}).to_doubles(),
            (std::vector<double>{2, 0, 1, 5, 3, 4}));
  EXPECT_EQ(one("torch.roll", {x}, {v(0), n(-1)}).to_doubles(),
            (std::vector<double>{1, 2, 3, 4, 5, 0}));
  EXPECT_EQ(one("torch.flip", {x}, {v(0), ints({0, 1})}).to_doubles(),
            (std::vector<double>{5, 4, 3, 2, 1, 0}));
  Tensor r = one("Tensor.repeat", {x}, {v(0), n(1), n(2)});
  EXPECT_EQ(r.shape(), (Shape{2, 6}));
  EXPECT_EQ(r.to_doubles(), (std::vector<double>{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  Tensor ri = one("torch.repeat_interleave", {x}, {v(0), n(2)}, {{"dim", n(0)}});
  EXPECT_EQ(ri.to_doubles(), (std::vector<double>{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  Tensor reps = Tensor::from_doubles(DType::int64, {2}, {1, 2});
  EXPECT_NE(error_of("torch.repeat_interleave", {x, reps}, {v(0), v(1)}).find("data-dependent"),
            std::string::npos);
}

TEST(IndexOps, BadIndexValuesAreErrorsNamingTheValue) {
  Tensor x = iota({4, 3});
  Tensor idx = Tensor::from_doubles(DType::int64, {2}, {1, 9});
  std::string e = error_of("torch.index_select", {x, idx}, {v(0), n(0), v(1)});
  EXPECT_NE(e.find("index 9 is out of bounds for dimension 0 with size 4"), std::string::npos) << e;
  Tensor gi = Tensor::from_doubles(DType::int64, {1, 1}, {-1});
  e = error_of("torch.gather", {x, gi}, {v(0), n(1), v(1)});
  EXPECT_NE(e.find("index -1"), std::string::npos) << e;
  Tensor fi = Tensor::from_doubles(DType::float32, {1}, {0});
  e = error_of("torch.nn.functional.embedding", {fi, x}, {v(0), v(1)});
  EXPECT_NE(e.find("int64 or int32"), std::string::npos) << e;
}

TEST(IndexOps, ScatterSpellingsAgree) {
  Tensor base = Tensor::zeros(DType::float32, {3});
  Tensor idx = Tensor::from_doubles(DType::int64, {3}, {0, 2, 0});
  Tensor src = Tensor::from_doubles(DType::float32, {3}, {1, 2, 3});
  Tensor a = one("Tensor.scatter_add_", {base, idx, src}, {v(0), n(0), v(1), v(2)});
  Tensor b = one("torch.scatter_add", {base, idx, src}, {v(0), n(0), v(1), v(2)});
  EXPECT_EQ(a.to_doubles(), (std::vector<double>{4, 0, 2}));
  EXPECT_EQ(a.to_doubles(), b.to_doubles());
  EXPECT_EQ(base.to_doubles(), (std::vector<double>{0, 0, 0}));  // inputs are never modified
  Tensor one_idx = Tensor::from_doubles(DType::int64, {1}, {1});
  Tensor c = one("torch.scatter", {base, one_idx}, {v(0), n(0), v(1)}, {{"value", Arg::make_real(7)}});
  EXPECT_EQ(c.to_doubles(), (std::vector<double>{0, 7, 0}));
  Tensor d = one("Tensor.scatter", {base, one_idx}, {v(0), n(0), v(1), Arg::make_real(7)});
  EXPECT_EQ(d.to_doubles(), c.to_doubles());
}

TEST(IndexOps, EmbeddingPicksRows) {
  Tensor w = iota({4, 2}, DType::bfloat16);
  Tensor idx = Tensor::from_doubles(DType::int32, {2, 1}, {3, 0});
  Tensor e = one("torch.nn.functional.embedding", {idx, w}, {v(0), v(1), n(0)});
  EXPECT_EQ(e.shape(), (Shape{2, 1, 2}));
  EXPECT_EQ(e.dtype(), DType::bfloat16);
  EXPECT_EQ(e.to_doubles(), (std::vector<double>{6, 7, 0, 1}));
}

// Degenerate shapes found by fuzzing: each must give a value or an error, never a crash.
TEST(CopyOps, DegenerateShapes) {
  Tensor scalar = Tensor::from_doubles(DType::float32, {}, {3});
  EXPECT_EQ(one("torch.roll", {scalar}, {v(0), ints({1}), ints({0})}).get(0), 3.0);
  Tensor empty = Tensor::zeros(DType::float16, {2, 0, 3});
  EXPECT_EQ(one("torch.cat", {empty, empty}, {Arg::make_list({v(0), v(1)}), n(1)}).shape(),
            (Shape{2, 0, 3}));
  EXPECT_EQ(one("torch.nn.functional.pad", {empty}, {v(0), ints({1, 1})}).shape(), (Shape{2, 0, 5}));
  Tensor idx = Tensor::from_doubles(DType::int64, {3}, {0, 0, 0});
  std::string e = error_of("torch.scatter_add", {scalar, idx, scalar}, {v(0), n(0), v(1), v(2)});
  EXPECT_NE(e.find("exceeds src shape"), std::string::npos) << e;
  e = error_of("torch.nn.functional.embedding", {idx, iota({2, 2})}, {v(0), v(1)},
               {{"max_norm", Arg::make_list({n(1)})}});
  EXPECT_NE(e.find("max_norm"), std::string::npos) << e;
}

}  // namespace
}  // namespace pf
