// The differential op test's cases (STYLE.md 5, after ggml's
// test-backend-ops): each case is a tiny graph-dialect function over random
// inputs, run for every dtype it lists on the GPU baseline and on the CPU
// reference, in several input layouts, compared at t = -5.
#pragma once

#include <string>
#include <vector>

#include "evaluator/core/dtype.h"
#include "evaluator/core/shape.h"

namespace pf::gpu::test {

//! One input (a parameter of the case's function).
struct CaseInput {
  Shape shape;
  //! 'T' the swept dtype; 'b' bool; 'l' int64; 'f' float32; 'h' float16.
  char dtype = 'T';
  double lo = -2, hi = 2;     // floating values: uniform in [lo, hi]
  int64_t ilo = -3, ihi = 3;  // integer values: uniform in [ilo, ihi]
};

struct OpCase {
  std::string op;      // the canonical op the case covers (the coverage check counts it)
  std::string params;  // "x, y"
  //! The returned expression ("torch.add(x, y, alpha=2)"), or a body with its
  //! own `return` line(s). "{T}" becomes the swept dtype ("torch.float16").
  std::string body;
  std::vector<CaseInput> inputs;
  std::vector<DType> dtypes;
};

//! Every case, in registry order of the families.
const std::vector<OpCase>& op_cases();

//! The case's source: `def f(<params>):` and its body.
std::string case_source(const OpCase& c, DType dtype);

//! The dtype of input `in` for sweep dtype `t`.
DType input_dtype(const CaseInput& in, DType t);

//! GPU ops no graph can name (method casts canonicalise to `to`).
const std::vector<std::string>& unreachable_ops();

}  // namespace pf::gpu::test
