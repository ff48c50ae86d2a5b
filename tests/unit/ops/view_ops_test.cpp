// View semantics of the layout ops: outputs share storage with their input
// (a write through the view is visible in the base), strides and offsets
// follow PyTorch, and copies happen exactly where PyTorch copies.
#include <gtest/gtest.h>

#include "evaluator/ops/layout_util.h"
#include "tests/unit/ops/op_runner.h"

namespace pf {
namespace {

using testing_ops::iota;
using testing_ops::ints;
using testing_ops::run_op;
using testing_ops::slice;

Arg v(int i) { return Arg::make_value(i); }
Arg n(int64_t i) { return Arg::make_int(i); }

// Runs a single-output op and checks it succeeded.
Tensor one(const std::string& spelling, const std::vector<Tensor>& in, std::vector<Arg> args,
           std::vector<std::pair<std::string, Arg>> kw = {}) {
  auto r = run_op(spelling, in, std::move(args), std::move(kw));
  EXPECT_TRUE(r.ok()) << spelling << ": " << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return Tensor::zeros(DType::float32, {0});
  EXPECT_EQ(r->outputs.size(), 1u);
  EXPECT_EQ(r->outputs[0].shape(), r->types[0].shape) << spelling << ": CPU shape != inferred";
  return r->outputs[0];
}

std::string error_of(const std::string& spelling, const std::vector<Tensor>& in,
                     std::vector<Arg> args, std::vector<std::pair<std::string, Arg>> kw = {}) {
  auto r = run_op(spelling, in, std::move(args), std::move(kw));
  return r.ok() ? std::string("<no error>") : r.error().message;
}

TEST(ViewOps, WritesThroughViewsReachTheBase) {
  const char* spellings[] = {"Tensor.view", "Tensor.reshape", "Tensor.transpose",
                             "Tensor.permute", "Tensor.unsqueeze", "Tensor.flatten"};
  std::vector<std::vector<Arg>> args = {{v(0), n(6), n(4)},    {v(0), n(-1)},
                                        {v(0), n(0), n(2)},    {v(0), n(2), n(0), n(1)},
                                        {v(0), n(1)},          {v(0)}};
  for (size_t k = 0; k < args.size(); ++k) {
    Tensor base = iota({2, 3, 4});
    Tensor out = one(spellings[k], {base}, args[k]);
    ASSERT_TRUE(out.shares_storage(base)) << spellings[k];
    out.set(5, -1.0);
    // Find element 5 of the view in the base: the value written must appear there.
    std::vector<double> all = base.to_doubles();
    EXPECT_EQ(std::count(all.begin(), all.end(), -1.0), 1) << spellings[k];
  }
}

TEST(ViewOps, TransposeAndPermuteStrides) {
  Tensor base = iota({2, 3, 4});
  Tensor t = one("torch.transpose", {base}, {v(0), n(-1), n(0)});
  EXPECT_EQ(t.shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(t.strides(), (Strides{1, 4, 12}));
  Tensor p = one("Tensor.permute", {base}, {v(0), ints({1, 2, 0})});
  EXPECT_EQ(p.shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(p.strides(), (Strides{4, 1, 12}));
  EXPECT_EQ(p.get(1), 12.0);  // p[0, 0, 1] = base[1, 0, 0]
}

TEST(ViewOps, ReshapeCopiesOnlyWhenStridesForbidAView) {
  Tensor base = iota({2, 3, 4});
  Tensor t = one("Tensor.transpose", {base}, {v(0), n(1), n(2)});  // [2, 4, 3], not contiguous
  Tensor merged_leading = one("Tensor.reshape", {t}, {v(0), n(8), n(3)});  // dims 0,1 mergeable? no
  EXPECT_FALSE(merged_leading.shares_storage(base));
  EXPECT_EQ(merged_leading.to_doubles(), one("Tensor.contiguous", {t}, {v(0)}).to_doubles());
  Tensor split_last = one("Tensor.reshape", {t}, {v(0), n(2), n(4), n(3), n(1)});
  EXPECT_TRUE(split_last.shares_storage(base));
  EXPECT_NE(error_of("Tensor.view", {t}, {v(0), n(-1)}).find("use reshape"), std::string::npos);
  // A contiguous input's contiguous() is the input itself; a transposed one's is a copy.
  EXPECT_TRUE(one("Tensor.contiguous", {base}, {v(0)}).shares_storage(base));
  EXPECT_FALSE(one("Tensor.contiguous", {t}, {v(0)}).shares_storage(base));
}

TEST(ViewOps, ViewShapeErrors) {
  Tensor base = iota({2, 3});
  EXPECT_NE(error_of("Tensor.view", {base}, {v(0), n(4), n(-1)}).find("invalid for input of size 6"),
            std::string::npos);
  EXPECT_NE(error_of("Tensor.view", {base}, {v(0), n(-1), n(-1)}).find("only one dimension"),
            std::string::npos);
  EXPECT_NE(error_of("Tensor.transpose", {base}, {v(0), n(0), n(2)}).find("out of range"),
            std::string::npos);
  EXPECT_NE(error_of("Tensor.permute", {base}, {v(0), n(0), n(0)}).find("more than once"),
            std::string::npos);
}

TEST(ViewOps, ExpandUsesZeroStrides) {
  Tensor base = iota({3, 1});
  Tensor e = one("Tensor.expand", {base}, {v(0), n(2), n(-1), n(4)});
  EXPECT_EQ(e.shape(), (Shape{2, 3, 4}));
  EXPECT_EQ(e.strides(), (Strides{0, 1, 0}));
  EXPECT_TRUE(e.shares_storage(base));
  EXPECT_EQ(e.get(23), 2.0);
  EXPECT_NE(error_of("Tensor.expand", {base}, {v(0), n(2), n(4)}).find("non-singleton"),
            std::string::npos);
  Tensor other = iota({5, 3, 7});
  EXPECT_EQ(one("Tensor.expand_as", {base, other}, {v(0), v(1)}).shape(), (Shape{5, 3, 7}));
}

TEST(ViewOps, SqueezeUnsqueezeSelectNarrow) {
  Tensor base = iota({1, 3, 1, 2});
  EXPECT_EQ(one("torch.squeeze", {base}, {v(0)}).shape(), (Shape{3, 2}));
  EXPECT_EQ(one("Tensor.squeeze", {base}, {v(0), n(2)}).shape(), (Shape{1, 3, 2}));
  EXPECT_EQ(one("Tensor.squeeze", {base}, {v(0), n(1)}).shape(), (Shape{1, 3, 1, 2}));
  Tensor u = one("Tensor.unsqueeze", {base}, {v(0), n(-1)});
  EXPECT_EQ(u.shape(), (Shape{1, 3, 1, 2, 1}));
  Tensor s = one("torch.select", {base}, {v(0), n(1), n(-1)});
  EXPECT_EQ(s.shape(), (Shape{1, 1, 2}));
  EXPECT_EQ(s.offset(), 4);
  Tensor nr = one("Tensor.narrow", {base}, {v(0), n(1), n(1), n(2)});
  EXPECT_EQ(nr.offset(), 2);
  EXPECT_EQ(nr.to_doubles(), (std::vector<double>{2, 3, 4, 5}));
  EXPECT_NE(error_of("Tensor.narrow", {base}, {v(0), n(1), n(2), n(2)}).find("exceeds"),
            std::string::npos);
}

TEST(Getitem, SlicesIntsNoneEllipsisGiveViews) {
  Tensor base = iota({3, 4, 5});
  // PyTorch: x[1:100:2, -2] has shape [1, 5], strides (40, 1), storage offset 30.
  Tensor a = one("operator.getitem", {base},
                 {v(0), Arg::make_tuple({slice(1, 100, 2), n(-2)})});
  EXPECT_EQ(a.shape(), (Shape{1, 5}));
  EXPECT_EQ(a.strides(), (Strides{40, 1}));
  EXPECT_EQ(a.offset(), 30);
  EXPECT_TRUE(a.shares_storage(base));
  Tensor b = one("operator.getitem", {base}, {v(0), Arg::make_tuple({Arg::make_ellipsis(), Arg::make_none()})});
  EXPECT_EQ(b.shape(), (Shape{3, 4, 5, 1}));
  EXPECT_EQ(b.strides(), (Strides{20, 5, 1, 1}));
  Tensor c = one("operator.getitem", {base}, {v(0), Arg::make_tuple({slice({}, {}), Arg::make_none()})});
  EXPECT_EQ(c.strides(), (Strides{20, 20, 5, 1}));
  Tensor d = one("operator.getitem", {base}, {v(0), slice(5, {})});
  EXPECT_EQ(d.shape(), (Shape{0, 4, 5}));
  Tensor e = one("operator.getitem", {base}, {v(0), slice(-100, 2)});
  EXPECT_EQ(e.shape(), (Shape{2, 4, 5}));
  EXPECT_NE(error_of("operator.getitem", {base}, {v(0), n(3)}).find("out of bounds"),
            std::string::npos);
  EXPECT_NE(error_of("operator.getitem", {base}, {v(0), slice({}, {}, -1)}).find("step"),
            std::string::npos);
  EXPECT_NE(error_of("operator.getitem", {base},
                     {v(0), Arg::make_tuple({n(0), n(0), n(0), n(0)})})
                .find("too many indices"),
            std::string::npos);
}

TEST(Getitem, IntegerTensorIndicesGatherACopy) {
  Tensor base = iota({2, 3, 4, 5});
  Tensor idx = Tensor::from_doubles(DType::int64, {2}, {0, -1});
  // PyTorch: x[0, :, idx] -> [3, 2, 5] (ints select before advanced indexing)
  Tensor a = one("operator.getitem", {base, idx}, {v(0), Arg::make_tuple({n(0), slice({}, {}), v(1)})});
  EXPECT_EQ(a.shape(), (Shape{3, 2, 5}));
  EXPECT_FALSE(a.shares_storage(base));
  EXPECT_EQ(a.get(5), 15.0);  // a[0, 1, 0] = base[0, 0, 3, 0]
  // x[idx, :, idx] -> non-adjacent: index dims first -> [2, 3, 5]
  Tensor b = one("operator.getitem", {base, idx}, {v(0), Arg::make_tuple({v(1), slice({}, {}), v(1)})});
  EXPECT_EQ(b.shape(), (Shape{2, 3, 5}));
  EXPECT_EQ(b.get(15), base.get(60 + 15));  // b[1, 0, 0] = base[1, 0, 3, 0]
  Tensor mask = Tensor::from_doubles(DType::boolean, {2}, {1, 0});
  EXPECT_NE(error_of("operator.getitem", {base, mask}, {v(0), v(1)}).find("data-dependent"),
            std::string::npos);
  Tensor bad = Tensor::from_doubles(DType::int64, {1}, {7});
  EXPECT_NE(error_of("operator.getitem", {base, bad}, {v(0), v(1)}).find("out of bounds"),
            std::string::npos);
}

TEST(SplitOps, ElementsAreViews) {
  Tensor base = iota({6, 4});
  auto r = run_op("torch.functional.split", {base}, {v(0), ints({1, 2, 3})}, {{"dim", n(0)}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->outputs.size(), 3u);
  EXPECT_EQ(r->outputs[2].shape(), (Shape{3, 4}));
  EXPECT_EQ(r->outputs[2].offset(), 12);
  EXPECT_TRUE(r->outputs[2].shares_storage(base));
  auto by_size = run_op("Tensor.split", {base}, {v(0), n(4)});
  ASSERT_TRUE(by_size.ok());
  EXPECT_EQ(by_size->types.size(), 2u);
  EXPECT_EQ(by_size->types[1].shape, (Shape{2, 4}));
  auto kw = run_op("Tensor.split", {base}, {v(0)}, {{"split_size", n(4)}, {"dim", n(0)}});
  ASSERT_TRUE(kw.ok()) << kw.error().message;
  EXPECT_EQ(kw->types.size(), 2u);
  auto bad = run_op("torch.split", {base}, {v(0), ints({1, 2})});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("sum to 3"), std::string::npos);
  auto chunks = run_op("torch.chunk", {base}, {v(0), n(4), n(1)});
  ASSERT_TRUE(chunks.ok());
  EXPECT_EQ(chunks->outputs.size(), 4u);
  EXPECT_EQ(chunks->outputs[3].offset(), 3);
  auto unbound = run_op("Tensor.unbind", {base}, {v(0), n(1)});
  ASSERT_TRUE(unbound.ok());
  ASSERT_EQ(unbound->outputs.size(), 4u);
  EXPECT_EQ(unbound->outputs[1].strides(), (Strides{4}));
  unbound->outputs[1].set(0, 99);
  EXPECT_EQ(base.get(1), 99.0);
  auto ts = run_op("torch.tensor_split", {base}, {v(0), ints({1, 5, 100})});
  ASSERT_TRUE(ts.ok());
  ASSERT_EQ(ts->outputs.size(), 4u);
  EXPECT_EQ(ts->outputs[1].shape(), (Shape{4, 4}));
  EXPECT_EQ(ts->outputs[3].shape(), (Shape{0, 4}));
}

TEST(SplitOps, TupleGetPicksOneElement) {
  Tensor a = iota({2}), b = iota({3});
  auto r = run_op("tuple_get", {a, b}, {Arg::make_list({v(0), v(1)}), n(-1)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->outputs[0].shares_storage(b));
  EXPECT_NE(error_of("tuple_get", {a, b}, {Arg::make_list({v(0), v(1)}), n(2)}).find("out of range"),
            std::string::npos);
}

TEST(SplitOps, MeshgridIsExpandedViews) {
  Tensor x = iota({3}), y = iota({4});
  auto ij = run_op("torch.functional.meshgrid", {x, y}, {v(0), v(1)},
                   {{"indexing", Arg::make_string("ij")}});
  ASSERT_TRUE(ij.ok()) << ij.error().message;
  EXPECT_EQ(ij->outputs[0].shape(), (Shape{3, 4}));
  EXPECT_EQ(ij->outputs[0].strides(), (Strides{1, 0}));
  EXPECT_TRUE(ij->outputs[1].shares_storage(y));
  auto xy = run_op("torch.meshgrid", {x, y}, {v(0), v(1)}, {{"indexing", Arg::make_string("xy")}});
  ASSERT_TRUE(xy.ok());
  EXPECT_EQ(xy->outputs[0].shape(), (Shape{4, 3}));
  EXPECT_EQ(xy->outputs[0].get(1), 1.0);
  EXPECT_EQ(xy->outputs[1].get(3), 1.0);
}

TEST(LayoutUtil, ViewStridesFollowPyTorch) {
  using layout::view_strides;
  // [2, 3, 4] transposed to [2, 4, 3] (strides 12, 1, 4): splitting dims works, merging 1,2 fails.
  EXPECT_EQ(view_strides({2, 4, 3}, {12, 1, 4}, {2, 2, 2, 3}), (Strides{12, 2, 1, 4}));
  EXPECT_FALSE(view_strides({2, 4, 3}, {12, 1, 4}, {2, 12}).has_value());
  EXPECT_EQ(view_strides({2, 4, 3}, {12, 1, 4}, {1, 2, 4, 3}).value()[1], 12);
  EXPECT_EQ(view_strides({}, {}, {1, 1}), (Strides{1, 1}));
}

}  // namespace
}  // namespace pf
