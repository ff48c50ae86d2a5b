#include "evaluator/tasks/hidden_variants.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"
#include "tests/support/paths.h"

namespace pf {
namespace {

Task task_of(int variants) {
  Task t;
  t.id = "t";
  for (int i = 0; i < variants; ++i) {
    TaskVariant v;
    v.name = "v" + std::to_string(i);
    t.variants.push_back(v);
  }
  return t;
}

std::vector<std::string> hidden_names(const Task& t) {
  std::vector<std::string> out;
  for (const auto& v : t.variants) {
    if (v.hidden) out.push_back(v.name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(HiddenVariants, HidesTheShareKeepsOneVisibleAndClearsEarlierFlags) {
  Task t = task_of(10);
  t.variants[9].hidden = true;
  hide_variant_share(t, 0.3);
  EXPECT_EQ(hidden_names(t).size(), 3u);
  hide_variant_share(t, 1.0);
  EXPECT_EQ(hidden_names(t).size(), 9u);  // one always visible
  hide_variant_share(t, 0.0);
  EXPECT_TRUE(hidden_names(t).empty());
  Task one = task_of(1);
  hide_variant_share(one, 0.9);
  EXPECT_TRUE(hidden_names(one).empty());
}

TEST(HiddenVariants, ChoiceDependsOnNamesNotOrder) {
  Task a = task_of(8);
  Task b = a;
  std::reverse(b.variants.begin(), b.variants.end());
  hide_variant_share(a, 0.5);
  hide_variant_share(b, 0.5);
  EXPECT_EQ(hidden_names(a), hidden_names(b));
  Task renamed = a;
  renamed.id = "other";
  hide_variant_share(renamed, 0.5);
  EXPECT_EQ(hidden_names(renamed).size(), 4u);
}

// The run's `share` policy must choose what the importer wrote into the task file.
TEST(HiddenVariants, ImporterWritesWhatTheRuleChooses) {
  ImportOptions options;
  options.hidden_share = 0.2;
  auto imported = import_tasks(pf::test::graphnet_slices_dir() / "neg-cat-mul-add-6a5c9e", options,
                               OpRegistry::builtin());
  ASSERT_TRUE(imported.ok()) << imported.error().message;
  ASSERT_TRUE((*imported)[0].task);
  const Task& written = *(*imported)[0].task;
  ASSERT_FALSE(hidden_names(written).empty());
  Task again = written;
  hide_variant_share(again, 0.2);
  EXPECT_EQ(hidden_names(again), hidden_names(written));
}

}  // namespace
}  // namespace pf
