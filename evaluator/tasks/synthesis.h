// Input synthesis from GraphNet metadata (docs/design.md "Evaluation protocol" 3,
// docs/tasks.md "Input synthesis"), deterministic for (seed, round, variant,
// input index) so every process and machine sees the same inputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "evaluator/core/tensor.h"
#include "evaluator/tasks/task.h"

namespace pf {

enum class ZeroStdRule {
  passforge,  // std 0 without data: std = 0.1 * |mean| if mean != 0, else 1
  graphnet,   // std 0: a constant tensor filled with mean (GraphNet's rule)
};

struct SynthesisOptions {
  uint64_t seed = 0;
  //! Input set number: 0 for the main run, 1 for the anti-caching second set, ...
  uint32_t round = 0;
  ZeroStdRule zero_std = ZeroStdRule::passforge;
  //! Widens every floating input's spread (the re-draw rule of
  //! informative_inputs.h): std becomes max(std, 0.1 * |mean|) * spread when
  //! spread != 1; values stay clamped to min_val/max_val.
  double spread = 1.0;
};

Tensor synthesize_input(const InputMeta& meta, const std::string& variant_name, size_t input_index,
                        const SynthesisOptions& options);

std::vector<Tensor> synthesize_inputs(const TaskVariant& variant, const SynthesisOptions& options);

}  // namespace pf
