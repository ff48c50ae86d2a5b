// masked_scatter(input, mask, source): input and a bool mask broadcast
// together (the out-of-place op broadcasts both, as PyTorch); where the mask
// is true, in row-major order, the next element of the flattened source.
// Which element lands where depends only on the mask, so the result is
// deterministic. The GPU baseline composes it (gpu/ops_masked_scatter.cpp).
#include "evaluator/ops/elementwise.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"

namespace pf {
namespace {

OpInfo masked_scatter_op() {
  OpInfo op;
  op.name = "masked_scatter";
  op.aliases = {"torch.masked_scatter", "Tensor.masked_scatter", "Tensor.masked_scatter_"};
  op.params = {tensor_param("input"), tensor_param("mask"), tensor_param("source")};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    const TensorType& x = a.tensor(0);
    if (a.tensor(1).dtype != DType::boolean) {
      return a.error(
          1, std::string("masked_scatter takes a bool mask, got ") + dtype_name(a.tensor(1).dtype));
    }
    if (a.tensor(2).dtype != x.dtype) {
      return a.error(2, std::string("expected self and source to have same dtypes but got ") +
                            dtype_name(x.dtype) + " and " + dtype_name(a.tensor(2).dtype));
    }
    auto shape = broadcast_shapes(x.shape, a.tensor(1).shape);
    if (!shape.ok())
      return a.error(1, "mask does not broadcast with input: " + shape.error().message);
    return std::vector<TensorType>{{x.dtype, *shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Shape& shape = out[0].shape;
    const Tensor x = broadcast_to(a.tensor(0), shape);
    const Tensor mask = broadcast_to(a.tensor(1), shape);
    const Tensor& source = a.tensor(2);
    const bool exact = !is_floating(x.dtype());
    Tensor y = Tensor::zeros(x.dtype(), shape);
    int64_t next = 0;
    for (int64_t i = 0, n = y.numel(); i < n; ++i) {
      const bool take = mask.get_int(i) != 0;
      if (take && next >= source.numel()) {
        return a.error(2, "Number of elements of source < number of ones in mask");
      }
      const Tensor& from = take ? source : x;
      const int64_t at = take ? next++ : i;
      if (exact) {
        y.set_int(i, from.get_int(at));
      } else {
        y.set(i, from.get(at));
      }
    }
    return std::vector<Tensor>{y};
  };
  op.doc = "input with the mask's true positions filled from source, in order";
  return op;
}

}  // namespace

void register_masked_scatter_ops(OpRegistry& r) {
  r.add(masked_scatter_op());
}

}  // namespace pf
