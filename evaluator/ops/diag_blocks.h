// Shape rules of F.bilinear, torch.diag_embed and torch.block_diag, read one
// way by the CPU reference and the GPU composition.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "evaluator/core/shape.h"
#include "evaluator/core/tensor.h"
#include "evaluator/ops/bound_args.h"

namespace pf {

// Parameters (input1, input2, weight, bias): inputs [..., in1] and [..., in2]
// with equal leading dims, weight [out, in1, in2], bias [out]; one floating dtype.
struct BilinearShape {
  int64_t rows = 1, in1 = 0, in2 = 0, out = 0;
  Shape out_shape;  // [..., out]
};

//! `t`: the four parameters' types (bias: nullopt when None).
inline Result<BilinearShape> bilinear_shape(const ArgReader& a,
                                            const std::vector<std::optional<TensorType>>& t) {
  const Shape& x1 = t[0]->shape;
  const Shape& x2 = t[1]->shape;
  const Shape& w = t[2]->shape;
  const DType d = t[0]->dtype;
  if (!is_floating(d))
    return a.error(0, std::string("expected a floating tensor, got ") + dtype_name(d));
  for (size_t i : {size_t{1}, size_t{2}, size_t{3}}) {
    if (!t[i]) continue;
    if (t[i]->dtype != d)
      return a.error(i,
                     std::string("expected ") + dtype_name(d) + ", got " + dtype_name(t[i]->dtype));
  }
  if (x1.empty() || x1.size() != x2.size() || !std::equal(x1.begin(), x1.end() - 1, x2.begin()))
    return a.error(1, "bilinear(): input batch dimensions do not match: got " + shape_str(x1) +
                          " and " + shape_str(x2));
  if (w.size() != 3 || w[1] != x1.back() || w[2] != x2.back())
    return a.error(2, "bilinear(): weight " + shape_str(w) + " does not match the inputs " +
                          shape_str(x1) + " and " + shape_str(x2));
  BilinearShape s;
  s.in1 = w[1];
  s.in2 = w[2];
  s.out = w[0];
  if (t[3]) {
    const Shape& b = t[3]->shape;
    if (b.size() != 1 || b[0] != s.out)
      return a.error(
          3, "bilinear(): bias " + shape_str(b) + " does not match the weight " + shape_str(w));
  }
  s.out_shape.assign(x1.begin(), x1.end() - 1);
  s.rows = shape_numel(s.out_shape);
  s.out_shape.push_back(s.out);
  return s;
}

// Parameters (input, offset, dim1, dim2): the output has one dim more; d1, d2
// (wrapped, distinct) hold the diagonal plane of size n + |offset|.
struct DiagEmbedShape {
  Shape out_shape;
  size_t d1 = 0, d2 = 0;
  int64_t offset = 0;
};

inline Result<DiagEmbedShape> diag_embed_shape(const ArgReader& a, const Shape& in) {
  DiagEmbedShape s;
  PF_ASSIGN(s.offset, a.integer(1));
  PF_ASSIGN(int64_t dim1, a.integer(2));
  PF_ASSIGN(int64_t dim2, a.integer(3));
  if (in.empty()) return a.error(0, "diag_embed expects an input with at least 1 dim");
  const auto rank = static_cast<int64_t>(in.size()) + 1;
  const auto wrap = [&](size_t i, int64_t d) -> Result<size_t> {
    if (d < -rank || d >= rank)
      return a.error(
          i, "dim " + std::to_string(d) + " out of range for " + std::to_string(rank) + " dims");
    return static_cast<size_t>(d < 0 ? d + rank : d);
  };
  PF_ASSIGN(s.d1, wrap(2, dim1));
  PF_ASSIGN(s.d2, wrap(3, dim2));
  if (s.d1 == s.d2) return a.error(3, "diagonal dimensions cannot be identical");
  const int64_t n = in.back() + (s.offset < 0 ? -s.offset : s.offset);
  Shape lead(in.begin(), in.end() - 1);
  size_t next = 0;
  for (size_t d = 0; d < static_cast<size_t>(rank); ++d)
    s.out_shape.push_back(d == s.d1 || d == s.d2 ? n : lead[next++]);
  return s;
}

// torch.block_diag's layout: where each block starts.
struct BlockDiagShape {
  struct Block {
    int64_t row = 0, col = 0, rows = 1, cols = 1;
  };
  std::vector<Block> blocks;
  int64_t rows = 0, cols = 0;
};

inline Result<BlockDiagShape> block_diag_shape(const ArgReader& a,
                                               const std::vector<Shape>& shapes) {
  BlockDiagShape s;
  for (const Shape& sh : shapes) {
    if (sh.size() > 2)
      return a.error(0,
                     "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input "
                     "has " +
                         std::to_string(sh.size()) + " dimensions");
    BlockDiagShape::Block b;
    b.row = s.rows;
    b.col = s.cols;
    if (sh.size() == 1) b.cols = sh[0];
    if (sh.size() == 2) {
      b.rows = sh[0];
      b.cols = sh[1];
    }
    s.rows += b.rows;
    s.cols += b.cols;
    s.blocks.push_back(b);
  }
  return s;
}

}  // namespace pf
