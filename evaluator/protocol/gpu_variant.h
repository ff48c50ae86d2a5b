// The GPU half of the protocol for one variant (docs/design.md "Evaluation
// protocol" 3-5 and the dynamic defences of "Integrity"), in this order:
//   1. two input sets synthesised on the device (seed per variant and round
//      0 / 1; gpu_input_drawer.h), each drawn twice (the candidate's copy and
//      the baseline's copy); no host copy: the inputs are checked on the
//      device against a fresh draw (gpu/tensor_checks.h);
//   2. CANDIDATE FIRST on set 0 with every allocation poisoned and guarded,
//      then the eager baseline on its own copy; outputs compared at every
//      level; unwritten (still poisoned) elements, canaries and input
//      checksums checked; the trivial-output guard run on the expected outputs;
//   3. the same on set 1 (a fresh plan: other pointers, other values);
//   4. a determinism re-run of the set-0 plan with its outputs re-poisoned;
//   5. timing, interleaved, rotating over both sets' plans, re-checking and
//      re-poisoning the candidate's outputs during the timed trials; inputs
//      and canaries checked again afterwards; the roofline plausibility check.
// Re-runs (4, 5 and same buffers, new contents) compare a keyed device digest
// of each output with the digests of outputs already verified on the host;
// only an output with other bits is read back and compared by tolerance.
// Steps stop at the first failure (its class and message are the verdict).
// The runtime's context must be current on the calling thread.
#pragma once

#include "evaluator/core/ir.h"
#include "evaluator/gpu/gpu_runtime.h"
#include "evaluator/gpu/timing.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/passes/gpu_replacement.h"
#include "evaluator/protocol/baseline_pool.h"
#include "evaluator/protocol/input_draw_cache.h"
#include "evaluator/protocol/protocol_options.h"
#include "evaluator/protocol/roofline.h"
#include "evaluator/protocol/variant_run.h"
#include "evaluator/tasks/task.h"

namespace pf::protocol {

struct GpuContext {
  gpu::GpuRuntime& runtime;
  gpu::TimingHarness& harness;
  DevicePeaks peaks;
  const OpRegistry& registry = OpRegistry::builtin();
  //! The worker's memo of input draws (input_draw_cache.h); null: every
  //! evaluation draws its inputs (a fresh seed never repeats).
  InputDrawCache* input_draws = nullptr;
  //! Eager samples of earlier evaluations (options.baseline_pool).
  BaselinePool* baseline_pool = nullptr;
};

//! `graph` is the variant's typed graph, `rewritten` the same after the
//! passes (replacement calls are handled by `replacements`).
VariantRun evaluate_variant_on_gpu(GpuContext& ctx, passes::GpuReplacements& replacements,
                                   const TaskVariant& variant, const Graph& graph,
                                   const Graph& rewritten, const ProtocolOptions& options);

//! The timing options the protocol uses for `options` (rotation over two
//! input sets: re-checks every 2 * recheck_cycle + 1 trials of a side, so
//! the checked plan alternates between the sets).
gpu::TimingOptions timing_options(const ProtocolOptions& options);

}  // namespace pf::protocol
