// Item assignment with a tensor in the index, in the two forms whose written
// positions have a static shape: one bool mask over x's leading dims with a
// number (or 0-d) value, `x[mask] = v` (masked_fill), and one 0-d or 1-d
// integer index tensor (or a list of ints) among full slices, `x[:, idx] = v` (the value
// broadcast to x with that dim the index's length). The CPU reference and the
// GPU baseline share this reading of the index.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "common/result.h"
#include "evaluator/core/ir.h"
#include "evaluator/core/shape.h"
#include "evaluator/ops/bound_args.h"

namespace pf {

struct SetitemTensorIndex {
  bool mask = false;  // a bool mask over the first `dim` dims; else an index along `dim`
  ValueId tensor = kNoValue;
  const Arg* list = nullptr;  // a literal list of ints in the index tensor's place
  bool indexed() const { return tensor != kNoValue || list != nullptr; }
  int64_t dim = 0;
  Shape written;  // index form: x's shape with dim the index's length
};

//! The form of argument 1 (the index): not indexed() when it holds no
//! tensor or list; an error for other tensor indices. `value` is the value tensor's
//! shape (nullopt for a number).
Result<SetitemTensorIndex> setitem_tensor_index(const ArgReader& args, const Shape& shape,
                                                const std::function<TensorType(ValueId)>& type_of,
                                                const std::optional<Shape>& value);

}  // namespace pf
