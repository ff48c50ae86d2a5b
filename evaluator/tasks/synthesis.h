// Input synthesis from GraphNet metadata (docs/design.md "Evaluation protocol" 3,
// docs/tasks.md "Input synthesis"), deterministic for (seed, round, variant,
// input index) so every process and machine sees the same inputs. The rule
// turns an input's metadata into a PfSynthStream (evaluator/core/synth_stream.h);
// its elements are drawn here on the CPU, or on the GPU by the same code
// (evaluator/gpu/synthesis_fill.h), bit for bit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "evaluator/core/synth_stream.h"
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

//! The stream of an input without literal `data`: its key and value rule
//! after the defaults, the zero-std rule, the spread and the bounds.
PfSynthStream synthesis_stream(const InputMeta& meta, const std::string& variant_name,
                               size_t input_index, const SynthesisOptions& options);

//! Elements [0, n) of `stream` as `dtype` into `out` (n * dtype_size bytes):
//! the CPU twin of the GPU fill.
void fill_synthesized(const PfSynthStream& stream, DType dtype, std::byte* out, int64_t n);

Tensor synthesize_input(const InputMeta& meta, const std::string& variant_name, size_t input_index,
                        const SynthesisOptions& options);

std::vector<Tensor> synthesize_inputs(const TaskVariant& variant, const SynthesisOptions& options);

}  // namespace pf
