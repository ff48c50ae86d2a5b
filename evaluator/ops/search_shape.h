// The arguments of torch.bucketize / torch.searchsorted as the CPU reference
// and the GPU composition both read them (out_int32, right/side, the shapes).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "common/result.h"
#include "evaluator/core/dtype.h"
#include "evaluator/core/shape.h"
#include "evaluator/ops/bound_args.h"

namespace pf {

struct SearchParams {
  bool right = false;
  //! The sequence has leading dims (one sorted row per row of the values),
  //! else it is 1-d and every value searches it.
  bool batched = false;
  DType out_dtype = DType::int64;
};

//! Parameters: bucketize (input, boundaries, out_int32, right); searchsorted
//! (sorted_sequence, values, out_int32, right, side, sorter).
inline Result<SearchParams> read_search(const ArgReader& a, size_t seq_i, size_t val_i,
                                        const Shape& seq, const Shape& val) {
  SearchParams p;
  PF_ASSIGN(bool out_int32, a.boolean(2));
  p.out_dtype = out_int32 ? DType::int32 : DType::int64;
  PF_ASSIGN(p.right, a.boolean(3));
  if (a.size() > 4 && !a.is_none(4)) {
    PF_ASSIGN(std::string side, a.string(4));
    if (side != "left" && side != "right")
      return a.error(4, "side can only be 'left' or 'right' but got " + side);
    if (p.right && side == "left")
      return a.error(4,
                     "side and right can't be set to opposites, got side of left while "
                     "right was True");
    p.right = side == "right";
  }
  if (a.size() > 5 && !a.is_none(5)) return a.error(5, "sorter is not supported");
  if (seq.empty()) return a.error(seq_i, "the sorted sequence must have at least 1 dim");
  if (seq.size() == 1) return p;
  if (seq_i == 1) return a.error(seq_i, "boundaries tensor must be 1 dimension");
  if (seq.size() != val.size() || !std::equal(seq.begin(), seq.end() - 1, val.begin()))
    return a.error(val_i, "the sorted sequence " + shape_str(seq) + " and the values " +
                              shape_str(val) + " must share their leading dims");
  p.batched = true;
  return p;
}

}  // namespace pf
