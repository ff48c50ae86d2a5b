// The replacement interpreter: runs the restricted body of `replacement`
// (checked at load time by replacement_check.h) over one match's bindings.
//
// Semantics worth knowing:
// - Parameters are the match's bindings: tensors (with the view geometry the
//   graph gives them), tuples of tensors, or literals (ints, floats, tuples,
//   dtypes, strings, None).
// - Integer arithmetic is exact int64 with overflow checks; `//` and `%`
//   follow Python (floor). Floats cannot take part in arithmetic: they can
//   only be passed to kernels (eps) or compared. Tuples concatenate with `+`
//   and slice with t[a:b]; a tensor cannot be subscripted, compared or
//   tested for truth.
// - torch.empty/zeros(shape, dtype=) allocate contiguous tensors (float32 by
//   default); *_like(x) use x's shape and dtype and are contiguous.
// - launch("k", grid=, block=, smem=0, args=(...)): grid/block are an int or
//   a tuple of up to three ints; tensors pass their data pointer (offset
//   applied), ints and floats are converted to the kernel parameter's size
//   (sandbox marshal_kernel_args); the configuration is validated against
//   the device and kernel limits before the backend sees it.
// - The returned values must be tensors of exactly the pattern's output
//   types (count, dtype, shape): dtype_mismatch / shape_mismatch otherwise.
// Every error names the pass file, line and column. No loops exist, so a run
// is bounded by the body's size; launches and allocations are capped too.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/passes/interp_value.h"
#include "evaluator/passes/loaded_pass.h"
#include "evaluator/passes/replacement_backend.h"
#include "evaluator/scoring/failure_class.h"

namespace pf::passes {

using KernelTable = std::map<std::string, cuda::KernelInfo>;

//! Per replacement call. Exceeding any of them fails the run with
//! FailureClass::resource_limit before the memory is used: without loops a
//! body is short, but `t = t + t` doubles a value with every line.
struct InterpreterLimits {
  int max_launches = 64;
  int max_allocations = 64;
  int64_t max_alloc_bytes = int64_t{16} << 30;
  //! Items of one tuple (shapes have a handful; the longest legitimate
  //! tuples list a pattern's tensors).
  int64_t max_tuple_items = 4096;
  //! Values produced, a tuple counting 1 + its items recursively, summed
  //! over the call (every read of a name copies its value).
  int64_t max_value_cells = int64_t{1} << 20;
};

struct LaunchRecord {
  std::string kernel;
  cuda::LaunchConfig config;
  std::vector<std::string> args;  // rendered: "tensor float32[2, 3]", "64", "1e-06"
  int line = 0;
};

struct ReplacementRun {
  std::vector<int> outputs;         // tensor handles, one per pattern output
  std::vector<TensorMeta> tensors;  // the parameters' tensors, then every allocation
  std::vector<LaunchRecord> launches;
};

class ReplacementInterpreter {
 public:
  ReplacementInterpreter(const LoadedPass& pass, const KernelTable& kernels,
                         ReplacementBackend& backend, InterpreterLimits limits = {});

  //! `tensors`: the geometry of every tensor the arguments refer to (handle =
  //! index); `args`: one value per pattern parameter; `expected`: the types
  //! of the values the match replaces, in pattern output order.
  Result<ReplacementRun> run(std::vector<TensorMeta> tensors, const std::vector<RValue>& args,
                             const std::vector<TensorType>& expected);

  //! The class of the last failed run: shape_mismatch or dtype_mismatch for a
  //! wrong return type, resource_limit for an InterpreterLimits cap,
  //! runtime_fail for everything else.
  FailureClass failure_class() const { return failure_; }

 private:
  const LoadedPass& pass_;
  const KernelTable& kernels_;
  ReplacementBackend& backend_;
  InterpreterLimits limits_;
  FailureClass failure_ = FailureClass::none;
};

//! The kernels of a compile outcome by name.
KernelTable kernel_table(const std::vector<cuda::KernelInfo>& kernels);

}  // namespace pf::passes
