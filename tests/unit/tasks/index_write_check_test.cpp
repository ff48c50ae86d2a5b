// Writes through tensor indices (x[:, idx] = v, index_put) whose positions a
// random draw can repeat are refused at import (evaluator/tasks/
// index_write_check.h): which of two writes to one element wins is
// unspecified, so no comparison of such a variant would mean anything.
#include <gtest/gtest.h>

#include <string>

#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"

namespace pf {
namespace {

std::string int_input(const std::string& name, int64_t n, const std::string& data) {
  std::string s = "class " + name + ":\n    name = \"" + name + "\"\n    shape = [" +
                  std::to_string(n) + "]\n    dtype = \"torch.int64\"\n";
  return s + (data.empty() ? "    min_val = 0\n    max_val = 15\n" : "    data = " + data + "\n");
}

std::string float_input(const std::string& name, const std::string& shape) {
  return "class " + name + ":\n    name = \"" + name + "\"\n    shape = " + shape +
         "\n    dtype = \"torch.float32\"\n    mean = 0.0\n    std = 1.0\n";
}

// Imports `body` (lines of forward over in_0 [16, 16], in_1 and in_3 int64 [8],
// in_2 [16, 8] and in_4 [8]); `data1` is in_1's literal data ("" draws it).
Status import_write(const std::string& body, const std::string& data1 = "",
                    const std::string& data3 = "") {
  const std::string meta = float_input("in_0", "[16, 16]") + int_input("in_1", 8, data1) +
                           float_input("in_2", "[16, 8]") + int_input("in_3", 8, data3) +
                           float_input("in_4", "[8]");
  const std::string model =
      "import torch\nclass GraphModule(torch.nn.Module):\n"
      "    def forward(self, in_0, in_1, in_2, in_3, in_4):\n" +
      body;
  auto v = import_variant("v", model, "model.py", meta, "weight_meta.py", OpRegistry::builtin());
  if (!v.ok()) return v.error();
  return ok_status();
}

TEST(IndexWrites, ARandomIndexWritingATensorIsRefusedInEveryDisguise) {
  for (const char* body : {
           "        x = in_0.clone()\n        x[:, in_1] = in_2\n        return (x,)\n",
           "        x = in_0.clone()\n        i = in_1.long().view(-1)\n"
           "        x[:, i] = in_2\n        return (x,)\n",
           "        x = in_0.clone()\n        x[(slice(None, None, None), in_1)] = in_2\n"
           "        return (x,)\n",
           "        return (torch.index_put(in_0, (in_1, in_3), in_4),)\n",
           "        x = in_0.clone()\n        x[in_1, in_3] = in_4\n        return (x,)\n",
       }) {
    Status st = import_write(body);
    ASSERT_FALSE(st.ok()) << body;
    EXPECT_NE(st.error().message.find("synthesised at random"), std::string::npos)
        << st.error().message;
    EXPECT_NE(st.error().message.find("whichever write wins"), std::string::npos)
        << st.error().message;
  }
}

TEST(IndexWrites, LiteralDataNamingAPositionTwiceIsRefused) {
  Status st =
      import_write("        x = in_0.clone()\n        x[:, in_1] = in_2\n        return (x,)\n",
                   "[0, 3, 5, 3, 1, 2, 7, 9]");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("holds 3 twice"), std::string::npos) << st.error().message;
}

TEST(IndexWrites, WritesWithoutAmbiguityImport) {
  // Distinct literal positions; one value everywhere; accumulate; one index computed.
  EXPECT_TRUE(import_write("        x = in_0.clone()\n        x[:, in_1] = in_2\n"
                           "        return (x,)\n",
                           "[0, 3, 5, 4, 1, 2, 7, 9]")
                  .ok());
  EXPECT_TRUE(
      import_write("        x = in_0.clone()\n        x[:, in_1] = 0.5\n        return (x,)\n")
          .ok());
  EXPECT_TRUE(
      import_write("        return (torch.index_put(in_0, (in_1, in_3), in_4, accumulate=True),)\n")
          .ok());
  EXPECT_TRUE(import_write("        j = torch.arange(8)\n"
                           "        return (torch.index_put(in_0, (in_1, j), in_4),)\n")
                  .ok());
}

}  // namespace
}  // namespace pf
