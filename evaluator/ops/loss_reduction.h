// The `reduction` argument of torch.nn.functional's losses, read one way for
// the CPU reference and the GPU composition: reduction= ('none', 'mean',
// 'sum'; 'batchmean' for kl_div) or PyTorch's deprecated size_average= /
// reduce= pair, which wins when either is given (_Reduction.legacy_get_string).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "common/result.h"
#include "evaluator/ops/bound_args.h"

namespace pf {

enum class LossReduction : uint8_t { none, mean, sum, batchmean };

//! Parameter positions of a loss's reduction arguments; kNoParam where the
//! loss has no legacy pair (huber_loss).
struct LossReductionParams {
  static constexpr size_t kNoParam = std::numeric_limits<size_t>::max();
  size_t size_average = kNoParam;
  size_t reduce = kNoParam;
  size_t reduction = kNoParam;
  bool batchmean_ok = false;
};

inline Result<LossReduction> read_loss_reduction(const ArgReader& a, const LossReductionParams& p) {
  const auto given = [&](size_t i) { return i != LossReductionParams::kNoParam && !a.is_none(i); };
  if (given(p.size_average) || given(p.reduce)) {
    bool size_average = true, reduce = true;
    if (given(p.size_average)) {
      PF_ASSIGN(size_average, a.boolean(p.size_average));
    }
    if (given(p.reduce)) {
      PF_ASSIGN(reduce, a.boolean(p.reduce));
    }
    if (!reduce) return LossReduction::none;
    return size_average ? LossReduction::mean : LossReduction::sum;
  }
  PF_ASSIGN(std::string s, a.string(p.reduction));
  if (s == "none") return LossReduction::none;
  if (s == "mean") return LossReduction::mean;
  if (s == "sum") return LossReduction::sum;
  if (s == "batchmean" && p.batchmean_ok) return LossReduction::batchmean;
  return a.error(p.reduction, "'" + s + "' is not a valid value for reduction");
}

}  // namespace pf
