// F.unfold (im2col): the sliding kernel_size blocks of a [N, C, H, W] (or
// unbatched [C, H, W]) input as columns, [N, C * kh * kw, L] with L the
// number of block positions; row c * kh * kw + i * kw + j holds the block
// element (i, j) of channel c, zero where the block reaches into the padding.
// PyTorch's argument order: kernel_size, dilation, padding, stride. Floating
// dtypes, as PyTorch; an exact copy. No GPU kernel (the baseline reports it
// unsupported).
#include <cstring>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

struct UnfoldPlan {
  bool batched = true;
  int64_t n = 1, c = 0, in[2] = {0, 0}, k[2] = {0, 0}, dil[2] = {1, 1}, pad[2] = {0, 0},
          stride[2] = {1, 1}, out[2] = {0, 0};
  Shape out_shape;
};

template <typename T>
Result<UnfoldPlan> plan_unfold(const BoundArgs<T>& a) {
  UnfoldPlan p;
  const Shape& xs = shape_of(a.tensor(0));
  if (xs.size() != 3 && xs.size() != 4) {
    return a.error(0, "expects a 3-d (unbatched) or 4-d input, got shape " + shape_str(xs));
  }
  PF_TRY(require_floating(a, 0, dtype_of(a.tensor(0))));  // PyTorch's im2col: floating only
  p.batched = xs.size() == 4;
  const size_t off = p.batched ? 1 : 0;
  p.n = p.batched ? xs[0] : 1;
  p.c = xs[off];
  PF_ASSIGN(std::vector<int64_t> k, ints_n(a, 1, 2));
  PF_ASSIGN(std::vector<int64_t> dil, ints_n(a, 2, 2));
  PF_ASSIGN(std::vector<int64_t> pad, ints_n(a, 3, 2));
  PF_ASSIGN(std::vector<int64_t> stride, ints_n(a, 4, 2));
  for (size_t d = 0; d < 2; ++d) {
    if (k[d] <= 0) return a.error(1, "kernel_size must be positive");
    if (dil[d] <= 0) return a.error(2, "dilation must be positive");
    if (pad[d] < 0) return a.error(3, "padding must be non-negative");
    if (stride[d] <= 0) return a.error(4, "stride must be positive");
    p.in[d] = xs[off + 1 + d];
    p.k[d] = k[d];
    p.dil[d] = dil[d];
    p.pad[d] = pad[d];
    p.stride[d] = stride[d];
    const int64_t span = p.in[d] + 2 * pad[d] - dil[d] * (k[d] - 1) - 1;
    if (span < 0) {
      return a.error(1, "kernel " + shape_str(Shape{k[0], k[1]}) + " with dilation " +
                            shape_str(Shape{dil[0], dil[1]}) + " does not fit the padded input " +
                            shape_str(Shape{xs[off + 1] + 2 * pad[0], xs[off + 2] + 2 * pad[1]}));
    }
    p.out[d] = span / stride[d] + 1;
  }
  const int64_t rows = p.c * p.k[0] * p.k[1], blocks = p.out[0] * p.out[1];
  p.out_shape = p.batched ? Shape{p.n, rows, blocks} : Shape{rows, blocks};
  return p;
}

OpInfo unfold_op() {
  OpInfo op;
  op.name = "im2col";  // "unfold" is Tensor.unfold, the sliding-window view
  op.aliases = {"torch.nn.functional.unfold"};
  op.params = {param_tensor("input"), param_ints("kernel_size"),
               param_ints("dilation", std::vector<int64_t>{1}),
               param_ints("padding", std::vector<int64_t>{0}),
               param_ints("stride", std::vector<int64_t>{1})};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(UnfoldPlan p, plan_unfold(a));
    return std::vector<TensorType>{{a.tensor(0).dtype, p.out_shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(UnfoldPlan p, plan_unfold(a));
    // Both contiguous from offset 0: elements move as bytes, exact for every dtype.
    const Tensor x = a.tensor(0).contiguous_copy();
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    const size_t es = dtype_size(x.dtype());
    const std::byte* src = x.data();
    std::byte* dst = y.mutable_data();
    const int64_t blocks = p.out[0] * p.out[1], kk = p.k[0] * p.k[1];
    for (int64_t b = 0; b < p.n; ++b) {
      for (int64_t c = 0; c < p.c; ++c) {
        const int64_t plane = (b * p.c + c) * p.in[0] * p.in[1];
        for (int64_t i = 0; i < p.k[0]; ++i) {
          for (int64_t j = 0; j < p.k[1]; ++j) {
            const int64_t row = (b * p.c + c) * kk + i * p.k[1] + j;
            for (int64_t oh = 0; oh < p.out[0]; ++oh) {
              const int64_t h = oh * p.stride[0] - p.pad[0] + i * p.dil[0];
              if (h < 0 || h >= p.in[0]) continue;
              for (int64_t ow = 0; ow < p.out[1]; ++ow) {
                const int64_t w = ow * p.stride[1] - p.pad[1] + j * p.dil[1];
                if (w < 0 || w >= p.in[1]) continue;
                std::memcpy(dst + static_cast<size_t>(row * blocks + oh * p.out[1] + ow) * es,
                            src + static_cast<size_t>(plane + h * p.in[1] + w) * es, es);
              }
            }
          }
        }
      }
    }
    return std::vector<Tensor>{y};
  };
  op.doc = "sliding kernel_size blocks as columns (im2col): [N, C*kh*kw, L]";
  return op;
}

}  // namespace

void register_unfold_ops(OpRegistry& r) {
  r.add(unfold_op());
}

}  // namespace pf
