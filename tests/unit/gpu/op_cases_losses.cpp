// Differential cases of the torch.nn.functional losses (GPU compositions,
// evaluator/gpu/ops_losses.cpp): every reduction, the keyword arguments, and
// class-index targets drawn inside [0, C) ('l' inputs), some equal to
// ignore_index; probability targets drawn in [0, 1] (PyTorch does not
// require them to sum to 1).
#include <string>
#include <vector>

#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {

namespace {
const std::string F = "torch.nn.functional.";
}  // namespace

void add_loss_cases(std::vector<OpCase>& c) {
  for (const std::string r : {"none", "mean", "sum"}) {
    const std::string red = "reduction='" + r + "'";
    c.push_back({"mse_loss",
                 "x, t",
                 F + "mse_loss(x, t, " + red + ")",
                 {in({33, 130}), in({33, 130})},
                 kFloat});
    c.push_back(
        {"l1_loss", "x, t", F + "l1_loss(x, t, " + red + ")", {in({33, 130}), in({130})}, kFloat});
    c.push_back({"smooth_l1_loss",
                 "x, t",
                 F + "smooth_l1_loss(x, t, " + red + ", beta=0.5)",
                 {in({33, 130}), in({33, 130})},
                 kFloat});
    c.push_back({"huber_loss",
                 "x, t",
                 F + "huber_loss(x, t, " + red + ", delta=1.5)",
                 {in({33, 130}), in({33, 130})},
                 kFloat});
    c.push_back({"kl_div",
                 "x, t",
                 F + "kl_div(x, t, " + red + ")",
                 {in({33, 130}, -4, -0.1), in({33, 130}, 0, 1)},
                 kFloat});
    c.push_back({"binary_cross_entropy",
                 "x, t, w",
                 F + "binary_cross_entropy(x, t, weight=w, " + red + ")",
                 {in({33, 130}, 0.02, 0.98), in({33, 130}, 0, 1), in({130}, 0.5, 2)},
                 kFloat});
    c.push_back({"binary_cross_entropy_with_logits",
                 "x, t, w, p",
                 F + "binary_cross_entropy_with_logits(x, t, weight=w, " + red + ", pos_weight=p)",
                 {in({33, 130}, -6, 6), in({33, 130}, 0, 1), in({130}, 0.5, 2), in({130}, 0.5, 3)},
                 kFloat});
    c.push_back({"nll_loss",
                 "x, t, w",
                 F + "nll_loss(x, t, weight=w, ignore_index=2, " + red + ")",
                 {in({65, 10}, -4, 0), typed('l', {65}, 0, 0, 0, 9), in({10}, 0.5, 2)},
                 kFloat});
    c.push_back({"nll_loss",
                 "x, t",
                 F + "nll_loss(x, t, " + red + ")",
                 {in({4, 7, 5, 6}, -4, 0), typed('l', {4, 5, 6}, 0, 0, 0, 6)},
                 kFloat});
    c.push_back({"cross_entropy",
                 "x, t",
                 F + "cross_entropy(x, t, " + red + ")",
                 {in({65, 10}), typed('l', {65}, 0, 0, 0, 9)},
                 kFloat});
    c.push_back(
        {"cross_entropy",
         "x, t, w",
         F + "cross_entropy(x, t, weight=w, ignore_index=1, " + red + ", label_smoothing=0.2)",
         {in({4, 7, 5, 6}), typed('l', {4, 5, 6}, 0, 0, 0, 6), in({7}, 0.5, 2)},
         kFloat});
    c.push_back({"cross_entropy",
                 "x, t",
                 F + "cross_entropy(x, t, " + red + ", label_smoothing=0.1)",
                 {in({65, 10}), typed('l', {65}, 0, 0, 0, 9)},
                 kFloat});
    c.push_back({"cross_entropy",
                 "x, t, w",
                 F + "cross_entropy(x, t, weight=w, " + red + ", label_smoothing=0.3)",
                 {in({4, 7, 5, 6}), in({4, 7, 5, 6}, 0, 1), in({7}, 0.5, 2)},
                 kFloat});
  }
  c.push_back({"kl_div",
               "x, t",
               F + "kl_div(x, t, reduction='batchmean', log_target=True)",
               {in({33, 130}, -4, -0.1), in({33, 130}, -4, -0.1)},
               kFloat});
  c.push_back({"nll_loss",
               "x, t",
               F + "nll_loss(x, t, reduction='none')",
               {in({10}, -4, 0), typed('l', {}, 0, 0, 0, 9)},
               kFloat});
}

}  // namespace pf::gpu::test
