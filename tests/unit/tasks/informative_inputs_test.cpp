// The informative-inputs rule (informative_inputs.h) with the CPU reference:
// a variant whose synthesised inputs make the output all zeros is drawn
// again with a wider spread; one whose output is zero whatever the inputs is
// never informative; a discrete output with an element at its threshold is
// rejected; ordinary variants keep their own inputs.
#include "evaluator/tasks/informative_inputs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"

namespace pf {
namespace {

TaskVariant variant(const std::string& body, std::vector<InputMeta> inputs) {
  TaskVariant v;
  v.name = "v";
  std::string params;
  for (size_t i = 0; i < inputs.size(); ++i) params += (i ? ", in_" : "in_") + std::to_string(i);
  v.source = "def forward(" + params + "):\n" + body;
  v.inputs = std::move(inputs);
  return v;
}

InputMeta normal(size_t index, Shape shape, double mean, double std) {
  InputMeta m;
  m.name = "in_" + std::to_string(index);
  m.shape = std::move(shape);
  m.mean = mean;
  m.std = std;
  return m;
}

Result<InputDraw> draw_on_cpu(const TaskVariant& v, const SynthesisOptions& o = {}) {
  PF_ASSIGN(Graph g, typed_variant_graph(v, OpRegistry::builtin()));
  OutputRunner run = [g](const std::vector<Tensor>& inputs) {
    return run_graph_cpu(g, inputs, OpRegistry::builtin());
  };
  return draw_informative_inputs(v, o, run);
}

TEST(InformativeInputs, DegenerateReasons) {
  EXPECT_EQ(degenerate_reason(Tensor::from_doubles(DType::float32, {3}, {0, 0, 0})), "all zeros");
  EXPECT_EQ(degenerate_reason(Tensor::from_doubles(DType::float32, {2}, {1, 1})), "constant 1.0");
  EXPECT_EQ(degenerate_reason(Tensor::from_doubles(DType::float32, {2}, {1, NAN})),
            "non-finite values");
  EXPECT_EQ(degenerate_reason(Tensor::from_doubles(DType::float32, {2}, {1, 2})), "");
  EXPECT_EQ(degenerate_reason(Tensor::from_doubles(DType::float32, {1}, {0})), "")
      << "one element carries what it carries";
}

TEST(InformativeInputs, DrawOptionsWidenTheSpreadOnAnotherStream) {
  SynthesisOptions base;
  base.seed = 7;
  base.round = 1;
  EXPECT_EQ(draw_options(base, 0).round, 1u);
  EXPECT_EQ(draw_options(base, 0).spread, 1.0);
  EXPECT_EQ(draw_options(base, 1).round, 3u);
  EXPECT_EQ(draw_options(base, 1).spread, 1.0);
  EXPECT_EQ(draw_options(base, 4).spread, 64.0);
  EXPECT_EQ(draw_options(base, 4).seed, 7u);
  // The spread scales the std, clamped as before.
  InputMeta m = normal(0, {4096}, 0.0, 1.0);
  SynthesisOptions wide;
  wide.spread = 16;
  double narrow_max = 0, wide_max = 0;
  for (double x : synthesize_input(m, "v", 0, {}).to_doubles())
    narrow_max = std::max(narrow_max, x);
  for (double x : synthesize_input(m, "v", 0, wide).to_doubles()) wide_max = std::max(wide_max, x);
  EXPECT_NEAR(wide_max, 16 * narrow_max, 1e-4 * wide_max);
  // A std far below |mean| is widened from a tenth of |mean|: 1e-9 around
  // -0.0078 (a real GraphNet input) becomes 0.1 * 0.0078 * 16 * 0.2.
  InputMeta tight = normal(0, {20000}, -0.0078, 1e-9);
  std::vector<double> v = synthesize_input(tight, "v", 0, wide).to_doubles();
  const auto n = static_cast<double>(v.size());
  double mean = 0, var = 0;
  for (double x : v) mean += x / n;
  for (double x : v) var += (x - mean) * (x - mean) / n;
  EXPECT_NEAR(std::sqrt(var), 0.1 * 0.0078 * 16 * 0.2, 1e-4);
}

TEST(InformativeInputs, AllNegativeReluIsDrawnAgainWithAWiderSpread) {
  // x around -5 (0.2 * std = 0.2): relu(x) * y is 0 everywhere until the
  // spread is 16x (0.2 * 16 = 3.2; about 6% of x > 0).
  auto v = variant("    t = torch.relu(in_0)\n    u = t * in_1\n    return (u,)\n",
                   {normal(0, {96, 128}, -5.0, 1.0), normal(1, {96, 128}, 0.5, 1.0)});
  auto d = draw_on_cpu(v);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_TRUE(d->informative);
  EXPECT_EQ(d->attempt, 3);
  ASSERT_EQ(d->rejected.size(), 3u);
  EXPECT_EQ(d->rejected[0], "attempt 0 (input stream 0, spread 1.0): output 0: all zeros");
  EXPECT_EQ(d->rejected[2], "attempt 2 (input stream 2, spread 4.0): output 0: all zeros");
  EXPECT_EQ(degenerate_reason(d->outputs[0]), "");
  // Deterministic: the same draw again.
  auto again = draw_on_cpu(v);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->inputs[0].to_doubles(), d->inputs[0].to_doubles());
}

TEST(InformativeInputs, OrdinaryVariantsKeepTheirInputs) {
  auto v = variant("    t = torch.sigmoid(in_0)\n    return (t,)\n", {normal(0, {64}, 0.0, 1.0)});
  auto d = draw_on_cpu(v);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_TRUE(d->informative);
  EXPECT_EQ(d->attempt, 0);
  EXPECT_TRUE(d->rejected.empty());
  EXPECT_EQ(d->inputs[0].to_doubles(), synthesize_input(v.inputs[0], "v", 0, {}).to_doubles());
}

TEST(InformativeInputs, AnOutputZeroWhateverTheInputsIsNeverInformative) {
  auto v = variant("    t = in_0 * 0.0\n    return (t,)\n", {normal(0, {64}, 1.0, 1.0)});
  auto d = draw_on_cpu(v);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_FALSE(d->informative);
  EXPECT_EQ(d->attempt, 0);
  EXPECT_EQ(d->rejected.size(), static_cast<size_t>(kInputDrawAttempts));
  EXPECT_NE(d->summary().find("attempt 4 (input stream 2, spread 64.0): output 0: all zeros"),
            std::string::npos)
      << d->summary();
}

TEST(InformativeInputs, DiscreteOutputsWithElementsAtTheThresholdAreRejected) {
  // Literal inputs are never re-drawn: 0.5 sits exactly at the comparison's
  // threshold and flips when the inputs move by 2^-20 of their magnitude.
  InputMeta x = normal(0, {4}, 0.0, 1.0);
  x.data = std::vector<double>{0.5, 0.1, 0.9, 0.7};
  auto v = variant("    t = in_0 >= 0.5\n    return (t,)\n", {x});
  auto d = draw_on_cpu(v);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_FALSE(d->informative);
  EXPECT_NE(d->summary().find("output 0: 1 elements flip when the inputs move by"),
            std::string::npos)
      << d->summary();
  x.data = std::vector<double>{0.25, 0.1, 0.9, 0.7};
  auto clear = draw_on_cpu(variant("    t = in_0 >= 0.5\n    return (t,)\n", {x}));
  ASSERT_TRUE(clear.ok()) << clear.error().message;
  EXPECT_TRUE(clear->informative) << clear->summary();
}

TEST(InformativeInputs, ThresholdInsideTheGraphIsProbedNearZero) {
  // repeat-flatten-sigmoid-lt: sigmoid(x) < 0.5 sits at its threshold where x
  // is near 0, where a move relative to |x| alone moves nothing; the probe
  // moves every element by at least 2^-20 of the tensor's largest magnitude.
  InputMeta x = normal(0, {4}, 0.0, 1.0);
  x.data = std::vector<double>{1e-9, -0.3, 0.6, 0.2};
  const std::string body = "    s = in_0.sigmoid()\n    t = s < 0.5\n    return (t,)\n";
  auto d = draw_on_cpu(variant(body, {x}));
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_FALSE(d->informative);
  EXPECT_NE(d->summary().find("output 0: 1 elements flip"), std::string::npos) << d->summary();
  x.data = std::vector<double>{0.05, -0.3, 0.6, 0.2};
  auto clear = draw_on_cpu(variant(body, {x}));
  ASSERT_TRUE(clear.ok()) << clear.error().message;
  EXPECT_TRUE(clear->informative) << clear->summary();
}

}  // namespace
}  // namespace pf
