// F.bilinear, torch.diag_embed and torch.block_diag on the GPU, composed of
// registered GPU ops (no kernel of their own):
// - bilinear: one GEMM of x1 [rows, in1] with A permuted to [in1, out * in2],
//   then a product with x2 and a sum over in2 (float32 for half inputs,
//   rounded once);
// - diag_embed: where(eye, x[..., None], 0), padded by the offset, permuted so
//   the plane lands on (dim1, dim2);
// - block_diag: each block padded with zeros to the whole matrix, the blocks
//   added (they never overlap, so every element is one block's value or 0).
#include <optional>
#include <string>
#include <vector>

#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/diag_blocks.h"

namespace pf::gpu {
namespace {

Result<std::vector<DeviceTensor>> run_bilinear(const GpuArgs& a, const std::vector<TensorType>& out,
                                               PlanBuilder& b) {
  std::vector<std::optional<TensorType>> types;
  for (size_t i = 0; i < 4; ++i)
    types.push_back(a.is_none(i) ? std::nullopt : std::optional<TensorType>(a.tensor(i).type()));
  PF_ASSIGN(BilinearShape s, bilinear_shape(a, types));
  const DType c = composite_compute_dtype(out[0].dtype);
  PF_ASSIGN(DeviceTensor x1, as_dtype(b, a.tensor(0), c));
  PF_ASSIGN(DeviceTensor x2, as_dtype(b, a.tensor(1), c));
  PF_ASSIGN(DeviceTensor w, as_dtype(b, a.tensor(2), c));
  PF_ASSIGN(x1, call_gpu_op1(b, "reshape", {x1, int_list({s.rows, s.in1})}));
  PF_ASSIGN(x2, call_gpu_op1(b, "reshape", {x2, int_list({s.rows, 1, s.in2})}));
  PF_ASSIGN(w, call_gpu_op1(b, "permute", {w, int_list({1, 0, 2})}));
  PF_ASSIGN(w, call_gpu_op1(b, "reshape", {w, int_list({s.in1, s.out * s.in2})}));
  PF_ASSIGN(DeviceTensor t, call_gpu_op1(b, "matmul", {x1, w}));
  PF_ASSIGN(t, call_gpu_op1(b, "reshape", {t, int_list({s.rows, s.out, s.in2})}));
  PF_ASSIGN(t, call_gpu_op1(b, "mul", {t, x2}));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "sum", {t, int_list({-1})}));
  if (!a.is_none(3)) {
    PF_ASSIGN(DeviceTensor bias, as_dtype(b, a.tensor(3), c));
    PF_ASSIGN(y, call_gpu_op1(b, "add", {y, bias}));
  }
  PF_ASSIGN(y, call_gpu_op1(b, "reshape", {y, int_list(s.out_shape)}));
  PF_ASSIGN(y, as_dtype(b, y, out[0].dtype));
  return std::vector<DeviceTensor>{y};
}

// A zero of dtype t as a where/pad operand that keeps t (False for bool).
Arg zero_of(DType t) {
  return t == DType::boolean ? Arg::make_bool(false) : Arg::make_int(0);
}

Result<std::vector<DeviceTensor>> run_diag_embed(const GpuArgs& a, const std::vector<TensorType>&,
                                                 PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  PF_ASSIGN(DiagEmbedShape s, diag_embed_shape(a, x.shape()));
  const int64_t n = x.shape().back();
  PF_ASSIGN(DeviceTensor eye, call_gpu_op1(b, "eye", {Arg::make_int(n)},
                                           {{"dtype", Arg::make_dtype(DType::boolean)}}));
  PF_ASSIGN(DeviceTensor column, call_gpu_op1(b, "unsqueeze", {x, Arg::make_int(-1)}));
  PF_ASSIGN(DeviceTensor m, call_gpu_op1(b, "where", {eye, column, zero_of(x.dtype())}));
  const int64_t k = s.offset;
  if (k != 0) {
    // Columns shift right (k > 0) or rows down (k < 0); the plane grows by |k|.
    const std::vector<int64_t> pad =
        k > 0 ? std::vector<int64_t>{k, 0, 0, k} : std::vector<int64_t>{0, -k, -k, 0};
    PF_ASSIGN(m, call_gpu_op1(b, "pad", {m, int_list(pad)}));
  }
  const auto rank = static_cast<int64_t>(s.out_shape.size());
  std::vector<int64_t> perm;
  int64_t next = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (static_cast<size_t>(d) == s.d1) {
      perm.push_back(rank - 2);
    } else if (static_cast<size_t>(d) == s.d2) {
      perm.push_back(rank - 1);
    } else {
      perm.push_back(next++);
    }
  }
  PF_ASSIGN(m, call_gpu_op1(b, "permute", {m, int_list(perm)}));
  PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "contiguous", {m}));
  return std::vector<DeviceTensor>{y};
}

Result<std::vector<DeviceTensor>> run_block_diag(const GpuArgs& a,
                                                 const std::vector<TensorType>& out,
                                                 PlanBuilder& b) {
  const std::vector<const DeviceTensor*> ts = a.tensors(0);
  std::vector<Shape> shapes;
  shapes.reserve(ts.size());
  for (const DeviceTensor* t : ts) shapes.push_back(t->shape());
  PF_ASSIGN(BlockDiagShape s, block_diag_shape(a, shapes));
  if (ts.empty()) return make_error(ErrorCode::unsupported, "block_diag of no tensors on the GPU");
  DeviceTensor sum;
  for (size_t i = 0; i < ts.size(); ++i) {
    const BlockDiagShape::Block& blk = s.blocks[i];
    PF_ASSIGN(DeviceTensor t, as_dtype(b, *ts[i], out[0].dtype));
    PF_ASSIGN(t, call_gpu_op1(b, "reshape", {t, int_list({blk.rows, blk.cols})}));
    PF_ASSIGN(t, call_gpu_op1(b, "pad",
                              {t, int_list({blk.col, s.cols - blk.col - blk.cols, blk.row,
                                            s.rows - blk.row - blk.rows})}));
    if (i == 0) {
      sum = t;
    } else {
      PF_ASSIGN(sum, call_gpu_op1(b, "add", {sum, t}));
    }
  }
  if (sum.shares_storage(*ts[0])) {  // one block and nothing to pad: still a fresh tensor
    PF_ASSIGN(sum, call_gpu_op1(b, "clone", {sum}));
  }
  return std::vector<DeviceTensor>{sum};
}

}  // namespace

void register_gpu_diag_block_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"bilinear", run_bilinear, float_dtypes()});
  r.add(GpuOpInfo{"diag_embed", run_diag_embed, all_dtypes()});
  r.add(GpuOpInfo{"block_diag", run_block_diag, all_dtypes()});
}

}  // namespace pf::gpu
