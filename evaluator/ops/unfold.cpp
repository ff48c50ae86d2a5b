// F.unfold (im2col) and F.fold (col2im). unfold: the sliding kernel_size
// blocks of a [N, C, H, W] (or unbatched [C, H, W]) input as columns,
// [N, C * kh * kw, L] with L the number of block positions; row
// c * kh * kw + i * kw + j holds the block element (i, j) of channel c, zero
// where the block reaches into the padding. fold is its adjoint: columns
// [N, C * kh * kw, L] summed back into an output_size image [N, C, H, W],
// overlapping block elements added, those in the padding dropped.
// PyTorch's argument order: (output_size,) kernel_size, dilation, padding,
// stride. Floating dtypes, as PyTorch; unfold is an exact copy, fold sums in
// float64 and rounds once. GPU kernels: kernels/fold.cu (ops_fold.cpp).
#include <cstring>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

// The geometry both ops share: an image [n, c, in] and its columns
// [n, c * k[0] * k[1], out[0] * out[1]].
struct UnfoldPlan {
  bool batched = true;
  int64_t n = 1, c = 0, in[2] = {0, 0}, k[2] = {0, 0}, dil[2] = {1, 1}, pad[2] = {0, 0},
          stride[2] = {1, 1}, out[2] = {0, 0};
  Shape out_shape;
};

// Reads kernel_size, dilation, padding and stride from parameters first..first+3
// and sets the block grid for an image of spatial size `image`.
template <typename T>
Status plan_blocks(const BoundArgs<T>& a, size_t first, const int64_t (&image)[2], UnfoldPlan& p) {
  PF_ASSIGN(std::vector<int64_t> k, ints_n(a, first, 2));
  PF_ASSIGN(std::vector<int64_t> dil, ints_n(a, first + 1, 2));
  PF_ASSIGN(std::vector<int64_t> pad, ints_n(a, first + 2, 2));
  PF_ASSIGN(std::vector<int64_t> stride, ints_n(a, first + 3, 2));
  for (size_t d = 0; d < 2; ++d) {
    if (k[d] <= 0) return a.error(first, "kernel_size must be positive");
    if (dil[d] <= 0) return a.error(first + 1, "dilation must be positive");
    if (pad[d] < 0) return a.error(first + 2, "padding must be non-negative");
    if (stride[d] <= 0) return a.error(first + 3, "stride must be positive");
    p.in[d] = image[d];
    p.k[d] = k[d];
    p.dil[d] = dil[d];
    p.pad[d] = pad[d];
    p.stride[d] = stride[d];
    const int64_t span = image[d] + 2 * pad[d] - dil[d] * (k[d] - 1) - 1;
    if (span < 0) {
      return a.error(first, "kernel " + shape_str(Shape{k[0], k[1]}) + " with dilation " +
                                shape_str(Shape{dil[0], dil[1]}) + " does not fit the padded " +
                                "image " +
                                shape_str(Shape{image[0] + 2 * pad[0], image[1] + 2 * pad[1]}));
    }
    p.out[d] = span / stride[d] + 1;
  }
  return ok_status();
}

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
  const int64_t image[2] = {xs[off + 1], xs[off + 2]};
  PF_TRY(plan_blocks(a, 1, image, p));
  const int64_t rows = p.c * p.k[0] * p.k[1], blocks = p.out[0] * p.out[1];
  p.out_shape = p.batched ? Shape{p.n, rows, blocks} : Shape{rows, blocks};
  return p;
}

template <typename T>
Result<UnfoldPlan> plan_fold(const BoundArgs<T>& a) {
  UnfoldPlan p;
  const Shape& xs = shape_of(a.tensor(0));
  if (xs.size() != 2 && xs.size() != 3) {
    return a.error(0, "expects a 2-d (unbatched) or 3-d input, got shape " + shape_str(xs));
  }
  PF_TRY(require_floating(a, 0, dtype_of(a.tensor(0))));  // PyTorch's col2im: floating only
  PF_ASSIGN(std::vector<int64_t> size, ints_n(a, 1, 2));
  for (int64_t s : size) {
    if (s <= 0) return a.error(1, "output_size must be positive");
  }
  const int64_t image[2] = {size[0], size[1]};
  PF_TRY(plan_blocks(a, 2, image, p));
  p.batched = xs.size() == 3;
  const size_t off = p.batched ? 1 : 0;
  p.n = p.batched ? xs[0] : 1;
  const int64_t kk = p.k[0] * p.k[1];
  if (xs[off] % kk != 0) {
    return a.error(0, "dim " + std::to_string(off) + " of input " + shape_str(xs) +
                          " must be divisible by the product of kernel_size (" +
                          std::to_string(kk) + ")");
  }
  p.c = xs[off] / kk;
  const int64_t blocks = p.out[0] * p.out[1];
  if (xs[off + 1] != blocks) {
    return a.error(0, "input " + shape_str(xs) + " holds " + std::to_string(xs[off + 1]) +
                          " blocks; output_size " + shape_str(Shape{size[0], size[1]}) +
                          " with this kernel, dilation, padding and stride gives " +
                          std::to_string(blocks));
  }
  p.out_shape = p.batched ? Shape{p.n, p.c, size[0], size[1]} : Shape{p.c, size[0], size[1]};
  return p;
}

// Calls f(column element, image element) for every block element inside the
// image, both as row-major indices of the contiguous tensors.
template <typename F>
void for_each_tap(const UnfoldPlan& p, F&& f) {
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
              f(row * blocks + oh * p.out[1] + ow, plane + h * p.in[1] + w);
            }
          }
        }
      }
    }
  }
}

std::vector<ParamDef> block_params() {
  return {param_ints("kernel_size"), param_ints("dilation", std::vector<int64_t>{1}),
          param_ints("padding", std::vector<int64_t>{0}),
          param_ints("stride", std::vector<int64_t>{1})};
}

OpInfo unfold_op() {
  OpInfo op;
  op.name = "im2col";  // "unfold" is Tensor.unfold, the sliding-window view
  op.aliases = {"torch.nn.functional.unfold"};
  op.params = {param_tensor("input")};
  for (ParamDef& d : block_params()) op.params.push_back(std::move(d));
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
    for_each_tap(p, [&](int64_t col, int64_t img) {
      std::memcpy(dst + static_cast<size_t>(col) * es, src + static_cast<size_t>(img) * es, es);
    });
    return std::vector<Tensor>{y};
  };
  op.doc = "sliding kernel_size blocks as columns (im2col): [N, C*kh*kw, L]";
  return op;
}

OpInfo fold_op() {
  OpInfo op;
  op.name = "col2im";  // "fold" would read as a reduction
  op.aliases = {"torch.nn.functional.fold"};
  op.params = {param_tensor("input"), param_ints("output_size")};
  for (ParamDef& d : block_params()) op.params.push_back(std::move(d));
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(UnfoldPlan p, plan_fold(a));
    return std::vector<TensorType>{{a.tensor(0).dtype, p.out_shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(UnfoldPlan p, plan_fold(a));
    const std::vector<double> cols = read_doubles(a.tensor(0));
    std::vector<double> image(static_cast<size_t>(shape_numel(out[0].shape)), 0.0);
    for_each_tap(p, [&](int64_t col, int64_t img) {
      image[static_cast<size_t>(img)] += cols[static_cast<size_t>(col)];
    });
    return std::vector<Tensor>{Tensor::from_doubles(out[0].dtype, out[0].shape, image)};
  };
  op.doc = "columns [N, C*kh*kw, L] summed back into an output_size image (col2im)";
  return op;
}

}  // namespace

void register_unfold_ops(OpRegistry& r) {
  r.add(unfold_op());
  r.add(fold_op());
}

}  // namespace pf
