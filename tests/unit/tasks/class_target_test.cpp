// GraphNet samples with class-index targets (F.cross_entropy, F.nll_loss):
// the int64 target is synthesised in [min_val, max_val] (GraphNet's record of
// the real labels), so a sample whose range fits the classes runs on the CPU
// reference; a target input whose range passes the classes is refused at
// import (evaluator/tasks/class_targets.h); a computed target out of range is
// the reference's error (PyTorch's "Target 5 is out of bounds."), never a read
// outside the input.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "evaluator/ops/cpu_executor.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/tasks/importer.h"
#include "evaluator/tasks/synthesis.h"

namespace pf {
namespace {

Result<std::vector<Tensor>> run_loss(const std::string& call, int64_t max_label,
                                     int64_t classes = 5) {
  const std::string bounds =
      max_label < 0 ? "" : "    min_val = 0\n    max_val = " + std::to_string(max_label) + "\n";
  const std::string meta =
      "class A:\n    name = \"in_0\"\n    shape = [64, " + std::to_string(classes) +
      "]\n    dtype = \"torch.float32\"\n    mean = 0.0\n    std = 1.0\n"
      "class B:\n    name = \"in_1\"\n    shape = [64]\n    dtype = \"torch.int64\"\n" +
      bounds;
  const std::string model =
      "import torch\nclass GraphModule(torch.nn.Module):\n"
      "    def forward(self, in_0, in_1):\n        return (" +
      call + ",)\n";
  const auto& reg = OpRegistry::builtin();
  PF_ASSIGN(TaskVariant v, import_variant("v", model, "model.py", meta, "weight_meta.py", reg));
  PF_ASSIGN(Graph graph, typed_variant_graph(v, reg));
  return run_graph_cpu(graph, synthesize_inputs(v, SynthesisOptions{}), reg);
}

TEST(ClassTargets, LabelsInsideTheClassesRun) {
  for (const char* call : {"torch.nn.functional.cross_entropy(in_0, in_1, label_smoothing=0.1)",
                           "torch.nn.functional.nll_loss(in_0.log_softmax(-1), in_1, "
                           "ignore_index=2, reduction='sum')"}) {
    auto out = run_loss(call, 4);
    ASSERT_TRUE(out.ok()) << call << ": " << out.error().message;
    const double loss = (*out)[0].get(0);
    EXPECT_TRUE(std::isfinite(loss) && loss > 0) << call << ": " << loss;
  }
}

TEST(ClassTargets, ImportRefusesATargetInputPastTheClasses) {
  auto past = run_loss("torch.nn.functional.cross_entropy(in_0, in_1)", 9);
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.error().message.find("synthesised in [0, 9]"), std::string::npos)
      << past.error().message;
  // Without bounds synthesis draws [0, 2]: index 2 is past two classes.
  auto binary = run_loss("torch.nn.functional.nll_loss(in_0, in_1, reduction='sum')", -1, 2);
  ASSERT_FALSE(binary.ok());
  EXPECT_NE(binary.error().message.find("class indices in [0, 2)"), std::string::npos)
      << binary.error().message;
}

TEST(ClassTargets, AComputedTargetPastTheClassesIsAnErrorNotARead) {
  auto out = run_loss("torch.nn.functional.cross_entropy(in_0, in_1 + 5)", 4);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("out of bounds"), std::string::npos) << out.error().message;
}

}  // namespace
}  // namespace pf
