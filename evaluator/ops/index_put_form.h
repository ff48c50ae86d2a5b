// How index_put's indices read against the input (CPU reference and GPU
// composition alike): which dims the integer tensors index and which stay
// whole (None or beyond the tuple), the indices' broadcast shape B, and the
// written view's shape: B in place of the indexed dims when they are
// adjacent, else B first, as PyTorch's advanced indexing.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/shape.h"
#include "evaluator/ops/bound_args.h"

namespace pf {

struct IndexPutForm {
  std::vector<int64_t> indexed;  // dims with an index tensor, in order
  std::vector<size_t> items;     // their positions in the indices tuple
  std::vector<int64_t> sliced;   // the other dims, in order
  Shape broadcast;               // B
  Shape view;                    // the written view
  size_t broadcast_at = 0;       // where B starts in view (= sliced dims before it)
};

//! Reads parameter 1 (the indices tuple) of a call on an input of shape
//! `input`; env entries are read through shape_of / dtype_of.
template <typename T, typename ShapeOf, typename DTypeOf>
Result<IndexPutForm> read_index_put_form(const BoundArgs<T>& a, const Shape& input,
                                         ShapeOf shape_of, DTypeOf dtype_of) {
  const Arg& list = a.arg(1);
  if (!list.is_sequence()) return a.error(1, "expected a tuple of index tensors (or None)");
  if (list.items.size() > input.size()) {
    return a.error(1, "too many indices for a tensor of dimension " + std::to_string(input.size()));
  }
  IndexPutForm f;
  bool gap = false, adjacent = true;
  for (size_t d = 0; d < input.size(); ++d) {
    const bool in_tuple = d < list.items.size();
    if (in_tuple && !list.items[d].is_value() && !list.items[d].is_none()) {
      return a.error(1, "indices must be tensors or None");
    }
    if (!in_tuple || list.items[d].is_none()) {
      f.sliced.push_back(static_cast<int64_t>(d));
      if (!f.indexed.empty()) gap = true;
      continue;
    }
    const T& t = a.env()[list.items[d].value][0];
    const DType dt = dtype_of(t);
    if (dt != DType::int64) {
      return a.error(1, std::string("index tensors must be int64 here (as PyTorch), got ") +
                            dtype_name(dt) + " (the count of a bool mask's true values is data)");
    }
    if (gap) adjacent = false;
    f.indexed.push_back(static_cast<int64_t>(d));
    f.items.push_back(d);
    auto b = broadcast_shapes(f.broadcast, shape_of(t));
    if (!b.ok()) return a.error(1, "index tensors do not broadcast: " + b.error().message);
    f.broadcast = *b;
  }
  if (f.indexed.empty()) return a.error(1, "expected at least one index tensor");
  const int64_t first = f.indexed.front();
  f.broadcast_at =
      adjacent ? static_cast<size_t>(std::count_if(f.sliced.begin(), f.sliced.end(),
                                                   [first](int64_t d) { return d < first; }))
               : 0;
  for (size_t k = 0; k < f.sliced.size(); ++k) {
    if (k == f.broadcast_at) f.view.insert(f.view.end(), f.broadcast.begin(), f.broadcast.end());
    f.view.push_back(input[static_cast<size_t>(f.sliced[k])]);
  }
  if (f.broadcast_at == f.sliced.size()) {
    f.view.insert(f.view.end(), f.broadcast.begin(), f.broadcast.end());
  }
  return f;
}

}  // namespace pf
