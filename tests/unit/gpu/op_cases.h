// The differential op test's cases (after ggml's
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

// Dtype sweeps and input helpers for the case lists.
inline const std::vector<DType> kFloat = {DType::float16, DType::bfloat16, DType::float32,
                                          DType::float64};
inline const std::vector<DType> kNum = {DType::uint8,    DType::int8,    DType::int16,
                                        DType::int32,    DType::int64,   DType::float16,
                                        DType::bfloat16, DType::float32, DType::float64};
inline const std::vector<DType> kAll = {
    DType::boolean, DType::uint8,   DType::int8,     DType::int16,   DType::int32,
    DType::int64,   DType::float16, DType::bfloat16, DType::float32, DType::float64};
inline const std::vector<DType> kInt = {DType::boolean, DType::uint8, DType::int8,
                                        DType::int16,   DType::int32, DType::int64};
inline const std::vector<DType> kFloatAndLong = {DType::float16, DType::bfloat16, DType::float32,
                                                 DType::float64, DType::int64};
inline const std::vector<DType> kHalves = {DType::float16, DType::bfloat16};

inline CaseInput in(Shape shape, double lo = -2, double hi = 2, int64_t ilo = -3, int64_t ihi = 3) {
  return CaseInput{std::move(shape), 'T', lo, hi, ilo, ihi};
}
inline CaseInput typed(char dtype, Shape shape, double lo = -2, double hi = 2, int64_t ilo = -3,
                       int64_t ihi = 3) {
  return CaseInput{std::move(shape), dtype, lo, hi, ilo, ihi};
}

// The case lists of the op families (op_cases*.cpp).
void add_layout_cases(std::vector<OpCase>& c);
void add_index_cases(std::vector<OpCase>& c);
void add_pool_cases(std::vector<OpCase>& c);
void add_interpolate_cases(std::vector<OpCase>& c);
void add_conv_cases(std::vector<OpCase>& c);
void add_attention_cases(std::vector<OpCase>& c);
void add_scan_cases(std::vector<OpCase>& c);
void add_einsum_cases(std::vector<OpCase>& c);
void add_order_statistics_cases(std::vector<OpCase>& c);
void add_index_write_cases(std::vector<OpCase>& c);
void add_grid_sample_cases(std::vector<OpCase>& c);
void add_loss_cases(std::vector<OpCase>& c);
void add_lp_pool_lrn_cases(std::vector<OpCase>& c);
void add_diag_block_cases(std::vector<OpCase>& c);
void add_search_cases(std::vector<OpCase>& c);
void add_cumulative_extrema_cases(std::vector<OpCase>& c);
void add_rnn_cell_cases(std::vector<OpCase>& c);
void add_histc_cases(std::vector<OpCase>& c);
void add_mode_cases(std::vector<OpCase>& c);

//! Every case, in registry order of the families.
const std::vector<OpCase>& op_cases();

//! The case's source: `def f(<params>):` and its body.
std::string case_source(const OpCase& c, DType dtype);

//! The dtype of input `in` for sweep dtype `t`.
DType input_dtype(const CaseInput& in, DType t);

//! GPU ops no graph can name (method casts canonicalise to `to`).
const std::vector<std::string>& unreachable_ops();

}  // namespace pf::gpu::test
