#include "evaluator/scoring/output_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace pf {
namespace {

TEST(OutputCompare, IdenticalPassesEveryLevel) {
  Tensor a = Tensor::from_doubles(DType::float32, {3}, {1, -2, INFINITY});
  auto r = compare_output(a, a.contiguous_copy());
  EXPECT_EQ(r.first_passing_level, kMinToleranceLevel);
  EXPECT_EQ(r.first_mismatch, -1);
  EXPECT_EQ(r.max_abs_diff, 0);
}

TEST(OutputCompare, FindsTheLowestPassingLevel) {
  // |c - e| = 1e-4 at e = 1: fp32 t=-4 allows 1e-4 + 1.38e-5 (pass); t=-5 allows
  // 1e-5 + 1.3e-6 (fail).
  Tensor e = Tensor::from_doubles(DType::float64, {2}, {1.0, 0.0});
  Tensor c = Tensor::from_doubles(DType::float64, {2}, {1.0001, 0.0});
  // float64 levels: t=-3 -> 10^-4.2 = 6.31e-5 each (atol+rtol*1 = 1.26e-4 >= 1e-4).
  auto r = compare_output(c, e);
  EXPECT_EQ(r.first_passing_level, -3);
  EXPECT_FALSE(r.correct_at(-4));
  EXPECT_TRUE(r.correct_at(-3));
  EXPECT_EQ(r.first_mismatch, 0);
  EXPECT_NEAR(r.max_abs_diff, 1e-4, 1e-12);
  EXPECT_NEAR(r.max_rel_diff, 1e-4, 1e-12);
}

TEST(OutputCompare, NanNeverEqual) {
  Tensor e = Tensor::from_doubles(DType::float32, {2}, {NAN, 1});
  auto r = compare_output(e.contiguous_copy(), e);
  EXPECT_EQ(r.nan_mismatches, 1);
  EXPECT_FALSE(r.correct_at(kMaxToleranceLevel));
  EXPECT_EQ(r.first_mismatch, 0);
}

TEST(OutputCompare, ShapeAndDtypeMismatch) {
  Tensor e = Tensor::from_doubles(DType::float32, {2}, {1, 2});
  Tensor c = Tensor::from_doubles(DType::float32, {1, 2}, {1, 2});
  EXPECT_FALSE(compare_output(c, e).shape_ok);
  EXPECT_FALSE(compare_output(c, e).correct_at(4));
  Tensor h = Tensor::from_doubles(DType::float16, {2}, {1, 2});
  EXPECT_FALSE(compare_output(h, e).dtype_ok);
}

TEST(OutputCompare, IntegersAreExactAtEveryLevel) {
  Tensor e = Tensor::from_doubles(DType::int64, {2}, {1, 2});
  Tensor c = Tensor::from_doubles(DType::int64, {2}, {1, 3});
  EXPECT_FALSE(compare_output(c, e).correct_at(4));
  EXPECT_EQ(format_index(5, {2, 3}), "[1, 2]");
}

// The comparison written from its definition, level by level and element by
// element: the oracle for compare_output's chunked pass, whose common chunks
// skip the per-element branches and must still give the same verdicts and
// the same bits.
bool close_at(double c, double e, const Tolerance& t, double relative_to) {
  if (c == e) return true;
  if (std::isnan(c) || std::isnan(e) || t.exact) return false;
  return std::fabs(c - e) <= t.atol + t.rtol * relative_to;
}

OutputComparison by_definition(const Tensor& candidate, const Tensor& expected) {
  OutputComparison r;
  const std::vector<double> c = candidate.to_doubles(), e = expected.to_doubles();
  const auto first_level = [&](bool relative_to_candidate) {
    for (int t = kMinToleranceLevel; t <= kMaxToleranceLevel; ++t) {
      const Tolerance tol = tolerance_for(expected.dtype(), t);
      bool all = true;
      for (size_t i = 0; i < c.size() && all; ++i) {
        all = close_at(c[i], e[i], tol, std::fabs(relative_to_candidate ? c[i] : e[i]));
      }
      if (all) return t;
    }
    return kMaxToleranceLevel + 1;
  };
  r.first_passing_level = first_level(false);
  r.first_passing_level_rtol_candidate = first_level(true);
  const Tolerance baseline = tolerance_for(expected.dtype(), kBaselineToleranceLevel);
  double sum = 0;
  int64_t finite = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    if (r.first_mismatch < 0 && !close_at(c[i], e[i], baseline, std::fabs(e[i]))) {
      r.first_mismatch = static_cast<int64_t>(i);
      r.first_mismatch_candidate = c[i];
      r.first_mismatch_expected = e[i];
    }
    if (c[i] == e[i]) {
      ++finite;
      continue;
    }
    if (std::isnan(c[i]) || std::isnan(e[i])) {
      ++r.nan_mismatches;
      continue;
    }
    const double d = std::fabs(c[i] - e[i]);
    if (!std::isfinite(d)) {
      r.max_abs_diff = INFINITY;
      continue;
    }
    r.max_abs_diff = std::max(r.max_abs_diff, d);
    sum += d;
    ++finite;
    if (e[i] != 0) r.max_rel_diff = std::max(r.max_rel_diff, d / std::fabs(e[i]));
  }
  r.mean_abs_diff = finite ? sum / static_cast<double>(finite) : 0;
  return r;
}

void expect_same(const OutputComparison& got, const OutputComparison& want, const char* what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(got.first_passing_level, want.first_passing_level);
  EXPECT_EQ(got.first_passing_level_rtol_candidate, want.first_passing_level_rtol_candidate);
  EXPECT_EQ(got.max_abs_diff, want.max_abs_diff);
  EXPECT_EQ(got.mean_abs_diff, want.mean_abs_diff);
  EXPECT_EQ(got.max_rel_diff, want.max_rel_diff);
  EXPECT_EQ(got.nan_mismatches, want.nan_mismatches);
  EXPECT_EQ(got.first_mismatch, want.first_mismatch);
  // The values shown for the first mismatch may be NaN: the same NaN passes.
  const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  EXPECT_PRED2(same, got.first_mismatch_candidate, want.first_mismatch_candidate);
  EXPECT_PRED2(same, got.first_mismatch_expected, want.first_mismatch_expected);
}

// Outputs of several chunks where the verdict moves in a late chunk, with
// NaN, inf, overflowing differences, integers, halves and transposed views.
TEST(OutputCompare, ChunkedPassMatchesTheDefinition) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> value(0, 3);
  const int64_t rows = 97, cols = 211;  // 20467 elements: several chunks and a partial one
  const int64_t n = rows * cols;
  struct Case {
    const char* what;
    DType dtype;
    // The candidate's element i from the expected value.
    double (*perturb)(double e, int64_t i, int64_t count, double noise);
  };
  const std::vector<Case> cases = {
      {"equal", DType::float32, [](double e, int64_t, int64_t, double) { return e; }},
      {"uniform noise", DType::float64,
       [](double e, int64_t, int64_t, double z) { return e + 1e-7 * z; }},
      {"worse in the last chunk", DType::float64,
       [](double e, int64_t i, int64_t count, double z) {
         return e + (i > count - 300 ? 1e-2 : 1e-8) * z;
       }},
      {"one bad element late", DType::float32,
       [](double e, int64_t i, int64_t count, double) { return i == count - 5 ? e + 1 : e; }},
      {"half of them equal", DType::float32,
       [](double e, int64_t i, int64_t, double z) { return i % 2 ? e : e * (1 + 1e-5 * z); }},
      {"nan late", DType::float32,
       [](double e, int64_t i, int64_t count, double) { return i == count - 1000 ? NAN : e; }},
      {"inf against finite", DType::float64,
       [](double e, int64_t i, int64_t, double) { return i == 9000 ? INFINITY : e; }},
      {"difference overflows", DType::float64,
       [](double e, int64_t i, int64_t, double) {
         return i == 12345 ? std::numeric_limits<double>::max() : e;
       }},
      {"integers off by one", DType::int32,
       [](double e, int64_t i, int64_t, double) { return i == 15000 ? e + 1 : e; }},
      // Relative to the candidate (PassNet's level), a zero where the expected
      // value is large fails harder than relative to the expected value; the
      // second one, in a later chunk, moves only that level.
      {"candidate zero", DType::float64,
       [](double e, int64_t i, int64_t count, double) {
         return i == 100 || i == count - 50 ? 0.0 : e;
       }},
      {"halves", DType::float16, [](double e, int64_t, int64_t, double z) { return e + 3e-3 * z; }},
  };
  for (const Case& k : cases) {
    std::vector<double> ev(static_cast<size_t>(n)), cv(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      double e = value(rng);
      if (k.what == std::string("difference overflows") && i == 12345) {
        e = -std::numeric_limits<double>::max();
      }
      if (k.what == std::string("nan late") && i == 17) e = NAN;   // both NaN: still a mismatch
      if (k.what == std::string("equal") && i == 3) e = INFINITY;  // inf == inf passes
      if (k.what == std::string("candidate zero") && (i == 100 || i == n - 50)) {
        e = i == 100 ? 5 : 40;
      }
      ev[static_cast<size_t>(i)] = e;
      cv[static_cast<size_t>(i)] = k.perturb(e, i, n, value(rng));
    }
    if (k.what == std::string("nan late")) cv[17] = NAN;
    const Tensor e = Tensor::from_doubles(k.dtype, {rows, cols}, ev);
    const Tensor c = Tensor::from_doubles(k.dtype, {rows, cols}, cv);
    expect_same(compare_output(c, e), by_definition(c, e), k.what);
    // Transposed views take the element-by-element conversion.
    const Tensor et = Tensor::view_of(e, {cols, rows}, {1, cols}, 0);
    const Tensor ct = Tensor::view_of(c, {cols, rows}, {1, cols}, 0);
    expect_same(compare_output(ct, et), by_definition(ct, et), k.what);
  }
}

}  // namespace
}  // namespace pf
