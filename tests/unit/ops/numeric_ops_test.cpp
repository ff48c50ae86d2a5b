// Numeric families (linear algebra, normalisation, conv, pooling,
// interpolation, attention, dropout): shape rules, float64 accumulation with
// one rounding, and refusals with actionable messages.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "evaluator/core/half.h"
#include "evaluator/ops/singular_values.h"
#include "tests/unit/ops/op_runner.h"

namespace pf {
namespace {

using testing_ops::ints;
using testing_ops::iota;
using testing_ops::OpRun;
using testing_ops::run_op;

Arg v(int i) {
  return Arg::make_value(i);
}
Arg n(int64_t i) {
  return Arg::make_int(i);
}

Result<OpRun> run(const std::string& spelling, const std::vector<Tensor>& in, std::vector<Arg> args,
                  std::vector<std::pair<std::string, Arg>> kw = {}) {
  return run_op(spelling, in, std::move(args), std::move(kw));
}

std::string error_of(const std::string& spelling, const std::vector<Tensor>& in,
                     std::vector<Arg> args, std::vector<std::pair<std::string, Arg>> kw = {}) {
  auto r = run(spelling, in, std::move(args), std::move(kw));
  return r.ok() ? std::string("<no error>") : r.error().message;
}

Shape out_shape(const std::string& spelling, const std::vector<Tensor>& in, std::vector<Arg> args,
                std::vector<std::pair<std::string, Arg>> kw = {}) {
  auto r = run(spelling, in, std::move(args), std::move(kw));
  EXPECT_TRUE(r.ok()) << spelling << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? r->types[0].shape : Shape{-1};
}

TEST(Linalg, MatmulRankRules) {
  EXPECT_EQ(out_shape("torch.matmul", {iota({3}), iota({3})}, {v(0), v(1)}), (Shape{}));
  EXPECT_EQ(out_shape("torch.matmul", {iota({2, 3}), iota({3})}, {v(0), v(1)}), (Shape{2}));
  EXPECT_EQ(out_shape("torch.matmul", {iota({3}), iota({4, 3, 2})}, {v(0), v(1)}), (Shape{4, 2}));
  EXPECT_EQ(out_shape("operator.matmul", {iota({5, 1, 2, 3}), iota({4, 3, 6})}, {v(0), v(1)}),
            (Shape{5, 4, 2, 6}));
  std::string e = error_of("torch.matmul", {iota({2, 3}), iota({4, 5})}, {v(0), v(1)});
  EXPECT_NE(e.find("cannot be multiplied (3 != 4)"), std::string::npos) << e;
  e = error_of("torch.bmm", {iota({2, 3}), iota({3, 2})}, {v(0), v(1)});
  EXPECT_NE(e.find("3-d"), std::string::npos) << e;
  e = error_of("torch._C._nn.linear", {iota({2, 3}), iota({4, 5})}, {v(0), v(1)});
  EXPECT_NE(e.find("in_features 3 != 5"), std::string::npos) << e;
}

TEST(Linalg, AccumulatesInFloat64AndRoundsOnce) {
  // float32 accumulation would lose the 1: (1e8 + 1) - 1e8 = 0 in float32.
  Tensor x = Tensor::from_doubles(DType::float32, {1, 3}, {1e8, 1, -1e8});
  Tensor w = Tensor::from_doubles(DType::float32, {1, 3}, {1, 1, 1});
  auto r = run("torch._C._nn.linear", {x, w}, {v(0), v(1)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outputs[0].get(0), 1.0);
  // The float16 result is the float64 value rounded to nearest even: 1 + 2^-11 -> 1.
  Tensor a = Tensor::from_doubles(DType::float16, {1, 2}, {1.0, 0.00048828125});
  Tensor b = Tensor::from_doubles(DType::float16, {2, 1}, {1.0, 1.0});
  auto m = run("torch.mm", {a, b}, {v(0), v(1)});
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->outputs[0].get(0), round_to_half(1.0 + 0.00048828125));
  EXPECT_NE(error_of("torch.mm", {a, iota({2, 1})}, {v(0), v(1)}).find("float16"),
            std::string::npos);
}

TEST(Linalg, ZeroInFeaturesGiveBias) {
  auto r =
      run("torch._C._nn.linear",
          {Tensor::zeros(DType::float32, {2, 0}), Tensor::zeros(DType::float32, {3, 0}), iota({3})},
          {v(0), v(1), v(2)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outputs[0].to_doubles(), (std::vector<double>{0, 1, 2, 0, 1, 2}));
}

std::vector<double> values_of(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.get(i));
  return out;
}

TEST(Linalg, OuterProductValuesAndPromotion) {
  Tensor x = Tensor::from_doubles(DType::float32, {3}, {1, -2, 0.5});
  Tensor y = Tensor::from_doubles(DType::int64, {2}, {3, 4});
  auto r = run("torch.outer", {x, y}, {v(0), v(1)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->types[0].dtype, DType::float32);
  EXPECT_EQ(r->types[0].shape, (Shape{3, 2}));
  EXPECT_EQ(values_of(r->outputs[0]), (std::vector<double>{3, 4, -6, -8, 1.5, 2}));
  // Integers stay exact and wrap as PyTorch's int64 mul does.
  Tensor big = Tensor::from_doubles(DType::int64, {1}, {4611686018427387904.0});  // 2^62
  auto w = run("Tensor.ger", {big, Tensor::from_doubles(DType::int64, {1}, {4})}, {v(0), v(1)});
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_EQ(w->outputs[0].get_int(0), 0);
  EXPECT_NE(error_of("torch.outer", {iota({2, 2}), iota({2})}, {v(0), v(1)}).find("1-d"),
            std::string::npos);
}

// F.pairwise_distance subtracts in the operands' type before eps promotes
// the difference: uint8 differences wrap (3 - 5 = 254), PyTorch 1.13 gives
// [[354], [501]] here; two bool operands are refused as PyTorch refuses them.
TEST(Statistics, PairwiseDistanceOfIntegersWrapsLikePyTorch) {
  Tensor x = Tensor::from_doubles(DType::uint8, {2, 2}, {3, 200, 10, 0});
  Tensor y = Tensor::from_doubles(DType::uint8, {2, 2}, {5, 100, 20, 1});
  auto r = run("torch.nn.functional.pairwise_distance", {x, y}, {v(0), v(1)},
               {{"p", Arg::make_real(1.0)}, {"keepdim", Arg::make_bool(true)}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->types[0].dtype, DType::float32);
  EXPECT_EQ(r->types[0].shape, (Shape{2, 1}));
  const std::vector<double> got = values_of(r->outputs[0]);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_NEAR(got[0], 354, 1e-3);
  EXPECT_NEAR(got[1], 501, 1e-3);
  Tensor b = Tensor::from_doubles(DType::boolean, {2}, {1, 0});
  EXPECT_NE(error_of("torch.nn.functional.pairwise_distance", {b, b}, {v(0), v(1)}).find("bool"),
            std::string::npos);
}

// torch.linalg.norm with a matrix ord and torch.linalg.matrix_norm; values by
// hand (row |sums| 8.5, 9.5; column |sums| 5, 4.5, 8.5), as PyTorch 1.13 gives.
TEST(Linalg, MatrixNormsByOrd) {
  Tensor x = Tensor::from_doubles(DType::float32, {2, 3}, {3, -4, 1.5, 2, 0.5, -7});
  const double inf = std::numeric_limits<double>::infinity();
  auto norm = [&](const std::string& spelling, Arg ord,
                  std::vector<std::pair<std::string, Arg>> kw) {
    auto r = run(spelling, {x}, {v(0), std::move(ord)}, std::move(kw));
    EXPECT_TRUE(r.ok()) << r.error().message;
    return r.ok() ? values_of(r->outputs[0]) : std::vector<double>{};
  };
  EXPECT_EQ(norm("torch.linalg.norm", Arg::make_real(inf), {}), std::vector<double>{9.5});
  EXPECT_EQ(norm("torch.linalg.norm", Arg::make_real(-inf), {}), std::vector<double>{8.5});
  EXPECT_EQ(norm("torch.linalg.norm", Arg::make_int(1), {}), std::vector<double>{8.5});
  EXPECT_EQ(norm("torch.linalg.norm", Arg::make_int(-1), {}), std::vector<double>{4.5});
  EXPECT_EQ(norm("torch.linalg.matrix_norm", Arg::make_string("fro"), {}),
            std::vector<double>{static_cast<float>(std::sqrt(80.5))});
  // dim=(1, 0) swaps rows and columns: inf is then the largest column sum.
  const Arg swapped = Arg::make_tuple({Arg::make_int(1), Arg::make_int(0)});
  EXPECT_EQ(norm("torch.linalg.matrix_norm", Arg::make_real(inf), {{"dim", swapped}}),
            std::vector<double>{8.5});
  EXPECT_EQ(norm("torch.linalg.norm", Arg::make_int(-1), {{"dim", swapped}}),
            std::vector<double>{8.5});
  // Batched over the dim left out: b[i] = [[i, -1], [2, 3]], dims (1, 2).
  Tensor b = Tensor::from_doubles(DType::float64, {2, 2, 2}, {0, -1, 2, 3, 1, -1, 2, 3});
  auto batched = run("torch.linalg.matrix_norm", {b}, {v(0), Arg::make_real(inf)},
                     {{"dim", Arg::make_tuple({Arg::make_int(1), Arg::make_int(2)})},
                      {"keepdim", Arg::make_bool(true)}});
  ASSERT_TRUE(batched.ok()) << batched.error().message;
  EXPECT_EQ(batched->types[0].shape, (Shape{2, 1, 1}));
  EXPECT_EQ(values_of(batched->outputs[0]), (std::vector<double>{5, 5}));
  // Singular values: x x^T = [[27.25, -6.5], [-6.5, 53.25]], whose
  // eigenvalues are (80.5 +- sqrt(845)) / 2.
  const double s_max = std::sqrt((80.5 + std::sqrt(845.0)) / 2);
  const double s_min = std::sqrt((80.5 - std::sqrt(845.0)) / 2);
  auto single = [&](const std::string& spelling, Arg ord) {
    std::vector<double> r = norm(spelling, std::move(ord), {});
    return r.size() == 1 ? r[0] : std::nan("");
  };
  EXPECT_FLOAT_EQ(single("torch.linalg.norm", Arg::make_string("nuc")), s_max + s_min);
  EXPECT_FLOAT_EQ(single("torch.linalg.matrix_norm", Arg::make_int(2)), s_max);
  EXPECT_FLOAT_EQ(single("torch.linalg.matrix_norm", Arg::make_int(-2)), s_min);
  EXPECT_FLOAT_EQ(single("torch.norm", Arg::make_string("nuc")), s_max + s_min);
  // torch.norm's p=2 is the vector norm even over a matrix (Frobenius).
  EXPECT_FLOAT_EQ(single("torch.norm", Arg::make_int(2)), std::sqrt(80.5));
  // A 3-d input without dim is refused.
  EXPECT_NE(error_of("torch.linalg.norm", {b}, {v(0), Arg::make_real(inf)}).find("2-d input"),
            std::string::npos);
}

TEST(Arithmetic, AddcmulAndAddcdiv) {
  Tensor x = Tensor::from_doubles(DType::float32, {2, 2}, {1, 2, 3, 4});
  Tensor a = Tensor::from_doubles(DType::float32, {2}, {2, -1});
  Tensor b = Tensor::from_doubles(DType::float32, {2, 1}, {0.5, 4});
  auto m = run("torch.addcmul", {x, a, b}, {v(0), v(1), v(2)}, {{"value", Arg::make_real(0.5)}});
  ASSERT_TRUE(m.ok()) << m.error().message;
  // x + 0.5 * a * b: [[1 + 0.5, 2 - 0.25], [3 + 4, 4 - 2]]
  EXPECT_EQ(values_of(m->outputs[0]), (std::vector<double>{1.5, 1.75, 7, 2}));
  auto d = run("Tensor.addcdiv", {x, a, b}, {v(0), v(1), v(2)}, {{"value", Arg::make_int(-2)}});
  ASSERT_TRUE(d.ok()) << d.error().message;
  // x - 2 * a / b: [[1 - 8, 2 + 4], [3 - 1, 4 + 0.5]]
  EXPECT_EQ(values_of(d->outputs[0]), (std::vector<double>{-7, 6, 2, 4.5}));
  Tensor i = Tensor::from_doubles(DType::int64, {2}, {5, 6});
  auto im = run("torch.addcmul", {i, i, i}, {v(0), v(1), v(2)}, {{"value", Arg::make_int(3)}});
  ASSERT_TRUE(im.ok()) << im.error().message;
  EXPECT_EQ(im->types[0].dtype, DType::int64);
  EXPECT_EQ(values_of(im->outputs[0]), (std::vector<double>{80, 114}));
  EXPECT_NE(error_of("torch.addcdiv", {i, i, i}, {v(0), v(1), v(2)}).find("integer division"),
            std::string::npos);
  EXPECT_NE(
      error_of("torch.addcmul", {i, i, i}, {v(0), v(1), v(2)}, {{"value", Arg::make_real(0.5)}})
          .find("float value"),
      std::string::npos);
}

TEST(Conv, OutputShapes) {
  Tensor x = iota({1, 2, 5, 6});
  EXPECT_EQ(out_shape("torch.conv2d", {x, iota({3, 2, 4, 2})}, {v(0), v(1)},
                      {{"padding", Arg::make_string("same")}}),
            (Shape{1, 3, 5, 6}));
  EXPECT_EQ(out_shape("torch.conv2d", {x, iota({4, 1, 3, 3})},
                      {v(0), v(1), Arg::make_none(), n(2), n(1), n(1), n(2)}),
            (Shape{1, 4, 3, 3}));
  EXPECT_EQ(out_shape("torch.conv2d", {iota({2, 5, 6}), iota({3, 2, 3, 3})}, {v(0), v(1)}),
            (Shape{3, 3, 4}));  // unbatched input
  EXPECT_EQ(out_shape("torch.nn.functional.conv_transpose2d", {x, iota({2, 3, 3, 3})}, {v(0), v(1)},
                      {{"stride", n(2)}, {"padding", n(1)}, {"output_padding", n(1)}}),
            (Shape{1, 3, 10, 12}));
  std::string e = error_of("torch.conv2d", {x, iota({3, 3, 3, 3})}, {v(0), v(1)});
  EXPECT_NE(e.find("expects 3 input channels, got 2"), std::string::npos) << e;
}

TEST(Conv, DirectAndGemmPathsAgree) {
  // 16 output channels per group use im2col + gemm; 1 per group uses direct
  // loops. Both must give the same float64 result as a naive sum.
  Tensor x = iota({1, 2, 4, 4});
  for (int64_t c_out : {16, 2}) {
    int64_t groups = c_out == 2 ? 2 : 1;
    int64_t c_in_g = 2 / groups;
    Tensor w = iota({c_out, c_in_g, 3, 3});
    auto r =
        run("torch.conv2d", {x, w}, {v(0), v(1), Arg::make_none(), n(1), n(1), n(1), n(groups)});
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Tensor& y = r->outputs[0];
    for (int64_t oc = 0; oc < c_out; ++oc) {
      int64_t g = oc / (c_out / groups);
      for (int64_t oh = 0; oh < 4; ++oh) {
        for (int64_t ow = 0; ow < 4; ++ow) {
          double sum = 0;
          for (int64_t ic = 0; ic < c_in_g; ++ic) {
            for (int64_t kh = 0; kh < 3; ++kh) {
              for (int64_t kw = 0; kw < 3; ++kw) {
                int64_t ih = oh - 1 + kh, iw = ow - 1 + kw;
                if (ih < 0 || ih >= 4 || iw < 0 || iw >= 4) continue;
                sum += x.get(((g * c_in_g + ic) * 4 + ih) * 4 + iw) *
                       w.get(((oc * c_in_g + ic) * 3 + kh) * 3 + kw);
              }
            }
          }
          ASSERT_EQ(y.get((oc * 4 + oh) * 4 + ow), static_cast<float>(sum))
              << "c_out " << c_out << " at " << oc << "," << oh << "," << ow;
        }
      }
    }
  }
}

TEST(SingularValues, TallWideAndNonFinite) {
  // diag(3, 4) with a zero row: 4 and 3, largest first.
  const std::vector<double> tall = {3, 0, 0, 4, 0, 0};
  EXPECT_EQ(singular_values(tall.data(), 3, 2), (std::vector<double>{4, 3}));
  // Wide: the rows [1, 1, 0] and [0, 0, 2] are orthogonal, norms 2 and sqrt(2).
  const std::vector<double> wide = {1, 1, 0, 0, 0, 2};
  std::vector<double> s = singular_values(wide.data(), 2, 3);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_NEAR(s[0], 2, 1e-15);
  EXPECT_NEAR(s[1], std::sqrt(2.0), 1e-15);
  // Rank one: the smaller value is (numerically) zero.
  const std::vector<double> rank_one = {1, 2, 2, 4};
  s = singular_values(rank_one.data(), 2, 2);
  EXPECT_NEAR(s[0], 5, 1e-14);
  EXPECT_NEAR(s[1], 0, 1e-14);
  const std::vector<double> with_inf = {1, std::numeric_limits<double>::infinity(), 0, 1};
  for (double v : singular_values(with_inf.data(), 2, 2)) EXPECT_TRUE(std::isnan(v));
}

TEST(MatrixNorm, SingularOrdersRefuseWhatTheReferenceCannotAfford) {
  Tensor big = Tensor::zeros(DType::float32, {257, 300});
  std::string e = error_of("torch.linalg.matrix_norm", {big}, {v(0), Arg::make_string("nuc")});
  EXPECT_NE(e.find("above 256"), std::string::npos) << e;
  // One side small is cheap whatever the other.
  Tensor long_matrix = Tensor::zeros(DType::float32, {3, 5000});
  auto r = run("torch.linalg.matrix_norm", {long_matrix}, {v(0), Arg::make_real(2.0)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outputs[0].get(0), 0.0);
  Tensor nan = Tensor::from_doubles(DType::float32, {2, 2},
                                    {1, std::numeric_limits<double>::quiet_NaN(), 0, 1});
  r = run("torch.linalg.matrix_norm", {nan}, {v(0), Arg::make_real(-2.0)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(std::isnan(r->outputs[0].get(0)));
}

TEST(Pooling, ShapesAndRefusals) {
  Tensor x = iota({1, 1, 5, 5});
  EXPECT_EQ(out_shape("torch.nn.functional.max_pool2d", {x}, {v(0), n(2)},
                      {{"ceil_mode", Arg::make_bool(true)}}),
            (Shape{1, 1, 3, 3}));
  EXPECT_EQ(out_shape("torch.nn.functional.adaptive_avg_pool2d", {x}, {v(0), n(1)}),
            (Shape{1, 1, 1, 1}));
  // return_indices=True adds the argmax (max_pool2d_with_indices,
  // adaptive_max_pool2d_with_indices), counted in the input plane.
  auto with_indices = run("torch.nn.functional.max_pool2d", {x}, {v(0), n(2)},
                          {{"return_indices", Arg::make_bool(true)}});
  ASSERT_TRUE(with_indices.ok()) << with_indices.error().message;
  ASSERT_EQ(with_indices->outputs.size(), 2u);
  EXPECT_EQ(with_indices->outputs[1].dtype(), DType::int64);
  EXPECT_EQ(with_indices->outputs[1].get_int(3), 18);  // window rows 2-3, cols 2-3 of iota 5x5
  auto adaptive =
      run("torch.nn.functional.adaptive_max_pool2d", {x}, {v(0), n(2), Arg::make_bool(true)});
  ASSERT_TRUE(adaptive.ok()) << adaptive.error().message;
  ASSERT_EQ(adaptive->outputs.size(), 2u);
  EXPECT_EQ(adaptive->outputs[1].get_int(3), 24);  // rows 2-4, cols 2-4: the last element
  std::string e = error_of("torch.nn.functional.max_pool2d", {x}, {v(0), n(2), n(1), n(2)});
  EXPECT_NE(e.find("at most half"), std::string::npos) << e;
  auto avg =
      run("torch._C._nn.avg_pool2d", {x},
          {v(0), n(3), n(1), n(1), Arg::make_bool(false), Arg::make_bool(false), Arg::make_none()});
  ASSERT_TRUE(avg.ok()) << avg.error().message;
  EXPECT_EQ(avg->outputs[0].get(0), (0 + 1 + 5 + 6) / 4.0);  // corner: padding not counted
}

TEST(Interpolate, SizeRulesAndNearest) {
  Tensor x = iota({1, 1, 2, 3});
  auto r =
      run("torch.nn.functional.interpolate", {x}, {v(0)}, {{"scale_factor", Arg::make_real(2.0)}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->types[0].shape, (Shape{1, 1, 4, 6}));
  EXPECT_EQ(r->outputs[0].get(7), 0.0);  // [0, 1] <- input [0, 0]
  EXPECT_EQ(r->outputs[0].get(8), 1.0);
  std::string e = error_of("torch.nn.functional.interpolate", {x}, {v(0)});
  EXPECT_NE(e.find("exactly one of size and scale_factor"), std::string::npos) << e;
  // antialias=True is PyTorch's bilinear/bicubic-only filter (values: golden interpolate_aa/*).
  e = error_of("torch.nn.functional.interpolate", {x}, {v(0), ints({4, 4})},
               {{"mode", Arg::make_string("nearest")}, {"antialias", Arg::make_bool(true)}});
  EXPECT_NE(e.find("antialias=True needs mode 'bilinear' or 'bicubic'"), std::string::npos) << e;
}

TEST(Normalization, RulesAndMessages) {
  Tensor x = iota({2, 3, 4});
  std::string e =
      error_of("torch.nn.functional.batch_norm", {x}, {v(0), Arg::make_none(), Arg::make_none()});
  EXPECT_NE(e.find("required when training=False"), std::string::npos) << e;
  e = error_of("torch.nn.functional.layer_norm", {x}, {v(0), ints({3})});
  EXPECT_NE(e.find("must match the trailing dims"), std::string::npos) << e;
  e = error_of("torch.nn.functional.group_norm", {x}, {v(0), n(2)});
  EXPECT_NE(e.find("3 channels must divide into 2 groups"), std::string::npos) << e;
  auto ln = run("torch.nn.functional.layer_norm", {x}, {v(0), ints({4})});
  ASSERT_TRUE(ln.ok());
  // Each row 0..3 normalises to (i - 1.5) / sqrt(1.25 + 1e-5).
  EXPECT_FLOAT_EQ(static_cast<float>(ln->outputs[0].get(0)),
                  static_cast<float>(-1.5 / std::sqrt(1.25 + 1e-5)));
}

TEST(Dropout, InferenceAliasesTrainingIsRefused) {
  Tensor x = iota({3});
  auto r = run("torch.nn.functional.dropout", {x},
               {v(0), Arg::make_real(0.1), Arg::make_bool(false), Arg::make_bool(false)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->outputs[0].shares_storage(x));
  std::string e = error_of("torch.nn.functional.dropout", {x}, {v(0), Arg::make_real(0.1)});
  EXPECT_NE(e.find("training=False"), std::string::npos) << e;
  auto t =
      run("torch.dropout", {x}, {v(0), Arg::make_real(0.5)}, {{"train", Arg::make_bool(false)}});
  EXPECT_TRUE(t.ok()) << t.error().message;
}

TEST(Attention, MaskingAndRefusals) {
  Tensor q = iota({1, 2, 2});
  Tensor mask = Tensor::from_doubles(DType::boolean, {2, 2}, {0, 0, 1, 1});
  auto r = run("torch.nn.functional.scaled_dot_product_attention", {q, q, q, mask},
               {v(0), v(1), v(2), v(3)});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outputs[0].get(0), 0.0);  // a fully masked row gives zeros
  EXPECT_EQ(r->outputs[0].get(1), 0.0);
  std::string e = error_of("torch.nn.functional.scaled_dot_product_attention", {q, q, q},
                           {v(0), v(1), v(2), Arg::make_none(), Arg::make_real(0.1)});
  EXPECT_NE(e.find("dropout_p > 0 is random"), std::string::npos) << e;
  e = error_of("torch.nn.functional.scaled_dot_product_attention", {q, iota({1, 2, 3}), q},
               {v(0), v(1), v(2)});
  EXPECT_NE(e.find("key's last dim 3 != query's 2"), std::string::npos) << e;
}

}  // namespace
}  // namespace pf
