#include "evaluator/tasks/typed_graph_memo.h"

#include <gtest/gtest.h>

#include "evaluator/dialect/printer.h"
#include "evaluator/tasks/importer.h"

namespace pf {
namespace {

TaskVariant relu_variant(Shape shape, const std::string& op = "relu") {
  TaskVariant v;
  v.name = "v";
  v.source = "def forward(x):\n    y = torch." + op + "(x)\n    z = y.sum(0)\n    return (z,)\n";
  InputMeta in;
  in.name = "x";
  in.dtype = DType::float32;
  in.shape = std::move(shape);
  v.inputs.push_back(in);
  return v;
}

std::string printed(const Graph& g) {
  dialect::PrintOptions po;
  po.type_comments = true;
  return dialect::print_graph(g, OpRegistry::builtin(), po);
}

TEST(TypedGraphMemo, GivesTheGraphTypingGivesAndKeepsIt) {
  TypedGraphMemo memo(1 << 20);
  const auto& reg = OpRegistry::builtin();
  TaskVariant v = relu_variant({2, 3});
  auto direct = typed_variant_graph(v, reg);
  ASSERT_TRUE(direct.ok()) << direct.error().message;
  auto first = memo.typed(v, reg);
  auto second = memo.typed(v, reg);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(printed(*first), printed(*direct));
  EXPECT_EQ(printed(*second), printed(*direct));
  EXPECT_EQ(memo.size(), 1u);
  EXPECT_EQ(memo.hits(), 1u);
}

TEST(TypedGraphMemo, KeySeparatesSourceShapeDtypeAndInputName) {
  TypedGraphMemo memo(1 << 20);
  const auto& reg = OpRegistry::builtin();
  TaskVariant base = relu_variant({2, 3});
  TaskVariant shape = relu_variant({4, 3});
  TaskVariant source = relu_variant({2, 3}, "sigmoid");
  TaskVariant dtype = relu_variant({2, 3});
  dtype.inputs[0].dtype = DType::float16;
  for (const TaskVariant* v : {&base, &shape, &source, &dtype}) {
    auto g = memo.typed(*v, reg);
    ASSERT_TRUE(g.ok()) << g.error().message;
    // Each answer is that variant's own typing, not a neighbour's.
    EXPECT_EQ(printed(*g), printed(*typed_variant_graph(*v, reg)));
  }
  EXPECT_EQ(memo.size(), 4u);
  EXPECT_EQ(memo.hits(), 0u);
  // Statistics and literal data are not read by typing: the same entry.
  TaskVariant stats = base;
  stats.inputs[0].mean = 3.0;
  stats.inputs[0].data = std::vector<double>(6, 1.0);
  ASSERT_TRUE(memo.typed(stats, reg).ok());
  EXPECT_EQ(memo.hits(), 1u);
  // A renamed input is another variant (and here a mismatch with forward's).
  TaskVariant renamed = base;
  renamed.inputs[0].name = "w";
  auto bad = memo.typed(renamed, reg);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("metadata says 'w'"), std::string::npos)
      << bad.error().message;
}

TEST(TypedGraphMemo, FailuresAndOtherRegistriesAreNotKept) {
  TypedGraphMemo memo(1 << 20);
  TaskVariant broken = relu_variant({2, 3});
  broken.source = "def forward(x):\n    return (torch.no_such_op(x),)\n";
  EXPECT_FALSE(memo.typed(broken, OpRegistry::builtin()).ok());
  EXPECT_FALSE(memo.typed(broken, OpRegistry::builtin()).ok());
  EXPECT_EQ(memo.size(), 0u);
  const OpRegistry copy = OpRegistry::builtin();
  TaskVariant v = relu_variant({2, 3});
  ASSERT_TRUE(memo.typed(v, copy).ok());
  ASSERT_TRUE(memo.typed(v, copy).ok());
  EXPECT_EQ(memo.size(), 0u);
  EXPECT_EQ(memo.hits(), 0u);
}

TEST(TypedGraphMemo, DropsTheLeastRecentlyUsedBeyondItsBudget) {
  const auto& reg = OpRegistry::builtin();
  TaskVariant a = relu_variant({2, 3});
  TaskVariant b = relu_variant({4, 3});
  TaskVariant c = relu_variant({8, 3});
  // Room for two keys of this size.
  TypedGraphMemo memo(2 * TypedGraphMemo::key(a).size() + 1);
  ASSERT_TRUE(memo.typed(a, reg).ok());
  ASSERT_TRUE(memo.typed(b, reg).ok());
  ASSERT_TRUE(memo.typed(a, reg).ok());  // a is now the most recent
  ASSERT_TRUE(memo.typed(c, reg).ok());  // drops b
  EXPECT_EQ(memo.size(), 2u);
  EXPECT_EQ(memo.hits(), 1u);
  ASSERT_TRUE(memo.typed(a, reg).ok());
  EXPECT_EQ(memo.hits(), 2u);
  ASSERT_TRUE(memo.typed(b, reg).ok());
  EXPECT_EQ(memo.hits(), 2u);
}

}  // namespace
}  // namespace pf
