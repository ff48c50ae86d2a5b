// F.bilinear (x1^T A x2 + b over the last dims), torch.diag_embed (the last
// dim on a diagonal of a new (dim1, dim2) plane, offset) and torch.block_diag
// (tensors of at most 2 dims down a block diagonal). References computed
// directly in float64 (bilinear) or copied exactly (diag_embed, block_diag).
#include "evaluator/ops/diag_blocks.h"

#include <optional>
#include <string>
#include <vector>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

std::vector<std::optional<TensorType>> bilinear_types(const BoundArgs<TensorType>& a) {
  std::vector<std::optional<TensorType>> t;
  for (size_t i = 0; i < 4; ++i)
    t.push_back(a.is_none(i) ? std::nullopt : std::optional<TensorType>(a.tensor(i)));
  return t;
}

std::vector<std::optional<TensorType>> bilinear_types(const BoundArgs<Tensor>& a) {
  std::vector<std::optional<TensorType>> t;
  for (size_t i = 0; i < 4; ++i) {
    if (a.is_none(i)) {
      t.emplace_back(std::nullopt);
    } else {
      t.emplace_back(TensorType{a.tensor(i).dtype(), a.tensor(i).shape()});
    }
  }
  return t;
}

// F.bilinear(input1, input2, weight, bias=None): y[..., o] = sum_ij x1[..., i] A[o, i, j]
// x2[..., j] + b[o].
OpInfo bilinear_op() {
  OpInfo op;
  op.name = "bilinear";
  op.aliases = {"torch.nn.functional.bilinear", "torch.bilinear"};
  op.params = {tensor_param("input1"), tensor_param("input2"), tensor_param("weight"),
               param("bias", ParamKind::optional_tensor, Arg::make_none())};
  op.doc = "x1^T A x2 + b over the last dims (A: [out, in1, in2])";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(BilinearShape s, bilinear_shape(a, bilinear_types(a)));
    return std::vector<TensorType>{{a.tensor(0).dtype, s.out_shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(BilinearShape s, bilinear_shape(a, bilinear_types(a)));
    const std::vector<double> x1 = a.tensor(0).to_doubles(), x2 = a.tensor(1).to_doubles();
    const std::vector<double> w = a.tensor(2).to_doubles();
    std::vector<double> b(static_cast<size_t>(s.out), 0.0);
    if (!a.is_none(3)) b = a.tensor(3).to_doubles();
    std::vector<double> y(static_cast<size_t>(s.rows * s.out));
    for (int64_t r = 0; r < s.rows; ++r) {
      const double* u = x1.data() + r * s.in1;
      const double* v = x2.data() + r * s.in2;
      for (int64_t o = 0; o < s.out; ++o) {
        double acc = 0;
        for (int64_t i = 0; i < s.in1; ++i) {
          const double* wi = w.data() + (o * s.in1 + i) * s.in2;
          double inner = 0;
          for (int64_t j = 0; j < s.in2; ++j) inner += wi[j] * v[j];
          acc += u[i] * inner;
        }
        y[static_cast<size_t>(r * s.out + o)] = acc + b[static_cast<size_t>(o)];
      }
    }
    return std::vector<Tensor>{Tensor::from_doubles(out[0].dtype, s.out_shape, y)};
  };
  return op;
}

// torch.diag_embed(input, offset=0, dim1=-2, dim2=-1).
OpInfo diag_embed_op() {
  OpInfo op;
  op.name = "diag_embed";
  op.aliases = {"torch.diag_embed", "Tensor.diag_embed"};
  op.params = {tensor_param("input"), param("offset", ParamKind::integer, Arg::make_int(0)),
               param("dim1", ParamKind::integer, Arg::make_int(-2)),
               param("dim2", ParamKind::integer, Arg::make_int(-1))};
  op.doc = "a tensor with the input's last dim on the diagonal (offset) of dims (dim1, dim2)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(DiagEmbedShape s, diag_embed_shape(a, a.tensor(0).shape));
    return std::vector<TensorType>{{a.tensor(0).dtype, s.out_shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(DiagEmbedShape s, diag_embed_shape(a, x.shape()));
    Tensor y = Tensor::zeros(out[0].dtype, s.out_shape);
    const Strides ys = contiguous_strides(s.out_shape);
    const int64_t n = x.shape().empty() ? 1 : x.shape().back();
    const int64_t rows = n == 0 ? 0 : x.numel() / n;
    // Output dims other than d1, d2, in order, are the input's leading dims.
    std::vector<size_t> batch_dims;
    for (size_t d = 0; d < s.out_shape.size(); ++d)
      if (d != s.d1 && d != s.d2) batch_dims.push_back(d);
    for (int64_t r = 0; r < rows; ++r) {
      int64_t base = 0, rest = r;
      for (size_t k = batch_dims.size(); k-- > 0;) {
        const int64_t size = s.out_shape[batch_dims[k]];
        base += (rest % size) * ys[batch_dims[k]];
        rest /= size;
      }
      for (int64_t i = 0; i < n; ++i) {
        const int64_t row = s.offset >= 0 ? i : i - s.offset;
        const int64_t col = s.offset >= 0 ? i + s.offset : i;
        const int64_t at = base + row * ys[s.d1] + col * ys[s.d2];
        if (is_floating(x.dtype())) {
          y.set(at, x.get(r * n + i));
        } else {
          y.set_int(at, x.get_int(r * n + i));
        }
      }
    }
    return std::vector<Tensor>{y};
  };
  return op;
}

// torch.block_diag(*tensors): 0-d as [1, 1], 1-d [n] as [1, n]; the promoted dtype.
OpInfo block_diag_op() {
  OpInfo op;
  op.name = "block_diag";
  op.aliases = {"torch.block_diag"};
  op.params = {layout::param_tensors("tensors", true)};
  op.doc = "the tensors (at most 2-d) as blocks down the diagonal of a matrix";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    std::vector<Shape> shapes;
    std::vector<OperandType> types;
    for (const TensorType* t : a.tensors(0)) {
      shapes.push_back(t->shape);
      types.push_back({t->dtype});
    }
    PF_ASSIGN(BlockDiagShape s, block_diag_shape(a, shapes));
    const DType d = types.empty() ? DType::float32 : result_type(types);
    return std::vector<TensorType>{{d, {s.rows, s.cols}}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    std::vector<Shape> shapes;
    for (const Tensor* t : a.tensors(0)) shapes.push_back(t->shape());
    PF_ASSIGN(BlockDiagShape s, block_diag_shape(a, shapes));
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    const std::vector<const Tensor*> ts = a.tensors(0);
    const bool exact = !is_floating(out[0].dtype);
    for (size_t k = 0; k < ts.size(); ++k) {
      const Tensor x = ts[k]->contiguous_copy();
      const BlockDiagShape::Block& b = s.blocks[k];
      for (int64_t i = 0; i < b.rows; ++i) {
        for (int64_t j = 0; j < b.cols; ++j) {
          const int64_t from = i * b.cols + j, to = (b.row + i) * s.cols + b.col + j;
          if (exact) {
            y.set_int(to, x.get_int(from));
          } else {
            y.set(to, x.get(from));
          }
        }
      }
    }
    return std::vector<Tensor>{y};
  };
  return op;
}

}  // namespace

void register_diag_block_ops(OpRegistry& r) {
  r.add(bilinear_op());
  r.add(diag_embed_op());
  r.add(block_diag_op());
}

}  // namespace pf
