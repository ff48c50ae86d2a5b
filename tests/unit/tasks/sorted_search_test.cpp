// Import refuses bucketize / searchsorted over boundaries that synthesis would
// fill at random (PyTorch's result is undefined on unsorted boundaries), and
// accepts boundaries known sorted.
#include <gtest/gtest.h>

#include <string>

#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"

namespace pf {
namespace {

Result<TaskVariant> import_body(const std::string& body, const std::string& boundaries_meta) {
  const std::string meta =
      "class A:\n    name = \"in_0\"\n    shape = [3, 4]\n    dtype = \"torch.float32\"\n"
      "class B:\n    name = \"in_1\"\n" +
      boundaries_meta;
  const std::string model =
      "import torch\nclass GraphModule(torch.nn.Module):\n"
      "    def forward(self, in_0, in_1):\n" +
      body;
  return import_variant("v", model, "model.py", meta, "weight_meta.py", OpRegistry::builtin());
}

const char* kRandom =
    "    shape = [5]\n    dtype = \"torch.float32\"\n    mean = 0.0\n    std = 1.0\n";

TEST(SortedSearch, SynthesisedBoundariesAreRefused) {
  auto v = import_body("        return (torch.bucketize(in_0, in_1),)\n", kRandom);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("synthesised at random"), std::string::npos)
      << v.error().message;
  auto s = import_body("        return (torch.searchsorted(in_1, in_0, side='right'),)\n", kRandom);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("searchsorted"), std::string::npos) << s.error().message;
}

TEST(SortedSearch, UnsortedLiteralDataIsRefused) {
  auto v =
      import_body("        return (torch.bucketize(in_0, in_1),)\n",
                  "    shape = [3]\n    dtype = \"torch.float32\"\n    data = [0.0, 2.0, 1.0]\n");
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("not sorted"), std::string::npos) << v.error().message;
}

TEST(SortedSearch, DescendingSortOrOtherOpsAreRefused) {
  auto d = import_body(
      "        s = torch.sort(in_1, descending=True)\n"
      "        return (torch.bucketize(in_0, s[0]),)\n",
      kRandom);
  EXPECT_FALSE(d.ok());
  auto c = import_body("        return (torch.bucketize(in_0, torch.cumsum(in_1, 0)),)\n", kRandom);
  EXPECT_FALSE(c.ok());
  auto r =
      import_body("        return (torch.bucketize(in_0, torch.arange(5, 0, -1)),)\n", kRandom);
  EXPECT_FALSE(r.ok());
}

TEST(SortedSearch, KnownSortedBoundariesImport) {
  auto data =
      import_body("        return (torch.bucketize(in_0, in_1, right=True),)\n",
                  "    shape = [3]\n    dtype = \"torch.float32\"\n    data = [-1.0, 0.0, 0.0]\n");
  EXPECT_TRUE(data.ok()) << data.error().message;
  auto sorted = import_body(
      "        s = torch.sort(in_1)\n"
      "        return (torch.bucketize(in_0, s[0]), torch.searchsorted(s[0], in_0[0]))\n",
      kRandom);
  EXPECT_TRUE(sorted.ok()) << sorted.error().message;
  auto ranges = import_body(
      "        a = torch.bucketize(in_0, torch.linspace(-1.0, 1.0, 5))\n"
      "        return (a, torch.bucketize(in_1, torch.arange(0, 3, 0.5)))\n",
      kRandom);
  EXPECT_TRUE(ranges.ok()) << ranges.error().message;
}

}  // namespace
}  // namespace pf
