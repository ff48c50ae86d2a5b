// The rule that keeps degenerate variants from deciding correctness
// (docs/tasks.md "Degenerate variants"). Synthesised inputs can make a
// variant's expected output carry no information: constant, all zeros or
// non-finite (relu of inputs that are all negative, a sigmoid saturated to
// 0), where a kernel that writes a constant is "correct"; or a discrete
// output (bool, integer) of floating inputs with elements sitting at a
// threshold, where rounding differences between two correct
// implementations flip them. Such inputs are drawn again:
//   attempt 0: the variant's own synthesis (the seed and input set given);
//   attempt 1: another seed stream (input set + 2);
//   attempts 2..4: that stream with a 4x, 16x, 64x wider spread (std, from at
//   least a tenth of |mean|), still clamped to the metadata's min_val/max_val;
// the first attempt whose outputs carry information is used. When none does,
// the variant is excluded from correctness (the protocol's task flag
// `degenerate_variant`; `passforge tasks check` fails). Deterministic for
// (seed, input set, variant).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/tensor.h"
#include "evaluator/tasks/synthesis.h"
#include "evaluator/tasks/task.h"

namespace pf {

inline constexpr int kInputDrawAttempts = 5;
//! Relative perturbation of floating inputs that probes discrete outputs for
//! elements at a threshold (about 8 float32 ulps).
inline constexpr double kThresholdProbe = 0x1.0p-20;

//! Why one output cannot tell a correct kernel from a constant one ("all
//! zeros", "constant 1", "non-finite values"), or "" when it can.
std::string degenerate_reason(const Tensor& output);

//! The synthesis options of `attempt` (0 .. kInputDrawAttempts - 1) for the
//! input set `base.round`.
SynthesisOptions draw_options(const SynthesisOptions& base, int attempt);

//! Computes a variant's outputs from its inputs (the GPU baseline, the CPU reference).
using OutputRunner = std::function<Result<std::vector<Tensor>>(const std::vector<Tensor>&)>;

struct InputDraw {
  std::vector<Tensor> inputs;   // empty when the drawer does not want host inputs
  std::vector<Tensor> outputs;  // `run` on `inputs`
  int attempt = 0;
  SynthesisOptions options;
  //! One line per rejected attempt: "attempt 0 (seed stream 0, spread 1): output 0: all zeros".
  std::vector<std::string> rejected;
  //! True when the outputs carry information; false: every attempt was
  //! rejected (inputs/outputs are attempt 0's) and the variant must not
  //! decide correctness.
  bool informative = true;
  std::string summary() const;  // rejected attempts joined, "" when none
};

//! Where the rule draws inputs and runs the variant on them: the host (the
//! OutputRunner overload below: CPU synthesis) or the GPU worker's device
//! buffers, drawn in place and downloaded only when the host needs them
//! (evaluator/protocol/gpu_input_drawer.h). Both draw the same values.
class InputDrawer {
 public:
  virtual ~InputDrawer() = default;
  //! Draws the variant's inputs with `options` and returns its outputs on them.
  virtual Result<std::vector<Tensor>> draw_and_run(const SynthesisOptions& options) = 0;
  //! The inputs of the last draw_and_run, on the host, as drawn.
  virtual Result<std::vector<Tensor>> drawn_inputs() = 0;
  //! The variant's outputs on host inputs (the threshold probe's moved inputs).
  virtual Result<std::vector<Tensor>> run(const std::vector<Tensor>& inputs) = 0;
  //! False when the caller keeps the accepted draw on the device and wants
  //! no host copy of it (InputDraw::inputs stays empty); the threshold probe
  //! still reads drawn_inputs().
  virtual bool wants_host_inputs() const { return true; }
};

//! Applies the rule. Errors are the drawer's.
Result<InputDraw> draw_informative_inputs(const TaskVariant& variant, const SynthesisOptions& base,
                                          InputDrawer& drawer);
//! The rule with CPU synthesis, `run` computing the outputs.
Result<InputDraw> draw_informative_inputs(const TaskVariant& variant, const SynthesisOptions& base,
                                          const OutputRunner& run);

}  // namespace pf
