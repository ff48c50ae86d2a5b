// The matmul family through cuBLAS / cuBLASLt (blas_gemm.h): matmul (every
// rank case, broadcast batch dims), mm, bmm, addmm, baddbmm, linear. As in
// PyTorch: transposed views go to cuBLAS as transposed operands (no copy),
// other layouts are made contiguous first; a batched left operand times a
// matrix folds into one GEMM when its rows are evenly strided; linear and
// addmm with a 1-d bias use cuBLASLt's bias epilogue, other biases are
// copied into the output and accumulated with beta. tensordot is permutes,
// reshapes and one mm; kron one broadcast mul, as PyTorch computes them.
#include "evaluator/gpu/blas_gemm.h"
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/tensordot_plan.h"

namespace pf::gpu {
namespace {

// A matrix operand broadcast over `batch`: t has shape [t_batch..., rows, cols].
struct Operand {
  DeviceTensor t;
  MatrixView view;
};

// The single stride that walks t's batch dims broadcast to `batch`, if any.
std::optional<int64_t> batch_stride(const DeviceTensor& t, const Shape& batch) {
  Shape tb(t.shape().begin(), t.shape().end() - 2);
  Strides ts(t.strides().begin(), t.strides().end() - 2);
  Layout l = coalesce(Layout{batch, {broadcast_strides(tb, ts, batch)}});
  if (l.shape.empty()) return int64_t{0};
  if (l.shape.size() == 1) return l.strides[0][0];
  return std::nullopt;
}

Result<Operand> prepare(PlanBuilder& b, const DeviceTensor& t, const Shape& batch) {
  const Shape& s = t.shape();
  const int64_t rows = s[s.size() - 2], cols = s.back();
  const int64_t rs = t.strides()[s.size() - 2], cs = t.strides().back();
  auto bs = batch_stride(t, batch);
  if (bs && gemm_compatible(rows, cols, rs, cs)) {
    b.use(t);
    return Operand{t, MatrixView{t.data_ptr(), rs, cs, *bs}};
  }
  // Materialise the broadcast operand contiguously (PyTorch's expand + reshape).
  Shape full = batch;
  full.push_back(rows);
  full.push_back(cols);
  Strides st = broadcast_strides(s, t.strides(), full);
  DeviceTensor expanded = DeviceTensor::view_of(t, full, st, t.offset());
  PF_ASSIGN(DeviceTensor c, materialize(b, expanded, t.dtype()));
  return Operand{c, MatrixView{c.data_ptr(), cols, 1, rows * cols}};
}

// A rank >= 1 tensor as a matrix: [k] -> [1, k] (row) or [k, 1] (column).
DeviceTensor as_matrix(const DeviceTensor& t, bool row) {
  if (t.dim() >= 2) return t;
  const int64_t k = t.shape()[0], s = t.strides()[0];
  return row ? DeviceTensor::view_of(t, {1, k}, {k * s, s}, t.offset())
             : DeviceTensor::view_of(t, {k, 1}, {s, s}, t.offset());
}

struct Product {
  GemmSpec spec;
  Shape batch;
  DeviceTensor c;  // [batch..., m, n] contiguous
};

// C = A @ B for matrices (or batches) a [.., m, k] and b [.., k, n]; allocates C.
Result<Product> plan_product(PlanBuilder& b, const DeviceTensor& a2, const DeviceTensor& b2,
                             DType dtype) {
  Shape ba(a2.shape().begin(), a2.shape().end() - 2), bb(b2.shape().begin(), b2.shape().end() - 2);
  PF_ASSIGN(Shape batch, broadcast_shapes(ba, bb));
  Product p;
  p.batch = batch;
  GemmSpec& s = p.spec;
  s.dtype = dtype;
  s.m = a2.shape()[a2.dim() - 2];
  s.k = a2.shape().back();
  s.n = b2.shape().back();
  s.batch = shape_numel(batch);
  const int64_t m0 = s.m;
  PF_ASSIGN(Operand oa, prepare(b, a2, batch));
  PF_ASSIGN(Operand ob, prepare(b, b2, batch));
  s.a = oa.view;
  s.b = ob.view;
  // Fold [batch..., m, k] @ [k, n] into one [batch * m, k] @ [k, n] when the
  // rows of all batches are evenly strided (PyTorch's matmul folding).
  if (s.batch > 1 && s.b.batch_stride == 0 && s.a.col_stride == 1) {
    Shape rows_shape = batch;
    rows_shape.push_back(s.m);
    Shape tb(oa.t.shape().begin(), oa.t.shape().end() - 2);
    Strides ts(oa.t.strides().begin(), oa.t.strides().end() - 2);
    Strides rs = broadcast_strides(tb, ts, batch);
    rs.push_back(s.a.row_stride);
    Layout l = coalesce(Layout{rows_shape, {rs}});
    if (l.shape.size() <= 1 && (l.shape.empty() || l.strides[0][0] == s.a.row_stride) &&
        s.a.row_stride >= s.k) {
      s.m *= s.batch;
      s.batch = 1;
    }
  }
  Shape cshape = batch;
  cshape.push_back(m0);
  cshape.push_back(s.n);
  PF_ASSIGN(p.c, b.allocate(TensorType{dtype, cshape}));
  s.c = p.c.data_ptr();
  return p;
}

DeviceTensor reshaped(const DeviceTensor& c, const Shape& shape) {
  return DeviceTensor::view_of(c, shape, contiguous_strides(shape), c.offset());
}

// matmul / mm / bmm.
Result<std::vector<DeviceTensor>> run_matmul(const GpuArgs& a, const std::vector<TensorType>& out,
                                             PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  const DeviceTensor& y = a.tensor(1);
  PF_ASSIGN(Product p, plan_product(b, as_matrix(x, true), as_matrix(y, false), out[0].dtype));
  PF_TRY(add_gemm(b, p.spec));
  return std::vector<DeviceTensor>{reshaped(p.c, out[0].shape)};
}

// Copies `bias` broadcast into c (beta accumulation follows in the GEMM).
Status copy_bias(PlanBuilder& b, const DeviceTensor& bias, const DeviceTensor& c) {
  Strides st = broadcast_strides(bias.shape(), bias.strides(), c.shape());
  return copy_into(b, DeviceTensor::view_of(bias, c.shape(), st, bias.offset()), c);
}

bool lt_bias_eligible(const DeviceTensor& bias, int64_t n, DType dtype, const Product& p) {
  return p.spec.batch == 1 && dtype != DType::float64 && bias.dim() == 1 && bias.shape()[0] == n &&
         bias.is_contiguous() && bias.dtype() == dtype && p.spec.m > 1 && p.spec.n > 1 &&
         bias.data_ptr() % 16 == 0;
}

// C = alpha * A @ B + beta * bias: the cuBLASLt bias epilogue when eligible
// and available, else the bias copied into C and a GEMM accumulating it.
Status add_product_with_bias(PlanBuilder& b, Product& p, const DeviceTensor& bias, double beta,
                             const Shape& out_shape) {
  if (beta == 1 && lt_bias_eligible(bias, p.spec.n, p.spec.dtype, p)) {
    GemmSpec with_bias = p.spec;
    with_bias.bias = &bias;
    PF_ASSIGN(bool added, add_gemm_bias_epilogue(b, with_bias));
    if (added) return ok_status();
  }
  PF_TRY(copy_bias(b, bias, reshaped(p.c, out_shape)));
  p.spec.beta = beta;
  return add_gemm(b, p.spec);
}

// addmm / baddbmm: beta * input + alpha * (m1 @ m2).
Result<std::vector<DeviceTensor>> run_add_product(const GpuArgs& a,
                                                  const std::vector<TensorType>& out,
                                                  PlanBuilder& b) {
  const DeviceTensor& input = a.tensor(0);
  PF_ASSIGN(double beta, a.real(3));
  PF_ASSIGN(double alpha, a.real(4));
  PF_ASSIGN(Product p, plan_product(b, a.tensor(1), a.tensor(2), out[0].dtype));
  p.spec.alpha = alpha;
  if (beta == 0) {
    PF_TRY(add_gemm(b, p.spec));  // beta = 0 ignores input, NaN included (PyTorch)
  } else {
    PF_TRY(add_product_with_bias(b, p, input, beta, out[0].shape));
  }
  return std::vector<DeviceTensor>{reshaped(p.c, out[0].shape)};
}

// linear(input, weight, bias): input @ weight.T (+ bias).
Result<std::vector<DeviceTensor>> run_linear(const GpuArgs& a, const std::vector<TensorType>& out,
                                             PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  const DeviceTensor& w = a.tensor(1);
  DeviceTensor wt = w.dim() == 2
                        ? DeviceTensor::view_of(w, {w.shape()[1], w.shape()[0]},
                                                {w.strides()[1], w.strides()[0]}, w.offset())
                        : as_matrix(w, false);
  PF_ASSIGN(Product p, plan_product(b, as_matrix(x, true), wt, out[0].dtype));
  if (a.is_tensor(2)) {
    PF_TRY(add_product_with_bias(b, p, a.tensor(2), 1.0, out[0].shape));
  } else {
    PF_TRY(add_gemm(b, p.spec));
  }
  return std::vector<DeviceTensor>{reshaped(p.c, out[0].shape)};
}

Result<std::vector<DeviceTensor>> run_tensordot(const GpuArgs& a,
                                                const std::vector<TensorType>& out,
                                                PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  const DeviceTensor& y = a.tensor(1);
  PF_ASSIGN(TensordotPlan p, tensordot_plan(a, x.shape(), y.shape()));
  PF_ASSIGN(DeviceTensor xp, call_gpu_op1(b, "permute", {x, int_list(p.perm_a)}));
  PF_ASSIGN(DeviceTensor lhs, call_gpu_op1(b, "reshape", {xp, int_list({p.m, p.k})}));
  PF_ASSIGN(DeviceTensor yp, call_gpu_op1(b, "permute", {y, int_list(p.perm_bt)}));
  PF_ASSIGN(DeviceTensor yt, call_gpu_op1(b, "reshape", {yp, int_list({p.n, p.k})}));
  PF_ASSIGN(DeviceTensor rhs, call_gpu_op1(b, "t", {yt}));
  PF_ASSIGN(DeviceTensor c, call_gpu_op1(b, "mm", {lhs, rhs}));
  return std::vector<DeviceTensor>{reshaped(c, out[0].shape)};
}

// kron: a viewed as [a0, 1, a1, 1, ...] times b as [1, b0, 1, b1, ...], one mul.
Result<std::vector<DeviceTensor>> run_kron(const GpuArgs& a, const std::vector<TensorType>& out,
                                           PlanBuilder& b) {
  const DeviceTensor& x = a.tensor(0);
  const DeviceTensor& y = a.tensor(1);
  const size_t rank = out[0].shape.size();
  Shape product;
  Strides sx, sy;
  for (size_t d = 0; d < rank; ++d) {
    const auto lead_x = static_cast<int64_t>(rank - x.shape().size());
    const auto lead_y = static_cast<int64_t>(rank - y.shape().size());
    const auto dx = static_cast<int64_t>(d) - lead_x, dy = static_cast<int64_t>(d) - lead_y;
    product.push_back(dx >= 0 ? x.shape()[dx] : 1);
    product.push_back(dy >= 0 ? y.shape()[dy] : 1);
    sx.push_back(dx >= 0 && x.shape()[dx] != 1 ? x.strides()[dx] : 0);
    sx.push_back(0);
    sy.push_back(0);
    sy.push_back(dy >= 0 && y.shape()[dy] != 1 ? y.strides()[dy] : 0);
  }
  Shape xs = product, ys = product;
  for (size_t d = 0; d < rank; ++d) {
    xs[2 * d + 1] = 1;
    ys[2 * d] = 1;
  }
  const DeviceTensor xv = DeviceTensor::view_of(x, xs, sx, x.offset());
  const DeviceTensor yv = DeviceTensor::view_of(y, ys, sy, y.offset());
  PF_ASSIGN(DeviceTensor c, call_gpu_op1(b, "mul", {xv, yv}));
  return std::vector<DeviceTensor>{reshaped(c, out[0].shape)};
}

}  // namespace

void register_gpu_matmul_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"tensordot", run_tensordot, float_dtypes()});
  r.add(GpuOpInfo{"kron", run_kron, all_dtypes()});
  for (const char* name : {"matmul", "mm", "bmm"})
    r.add(GpuOpInfo{name, run_matmul, float_dtypes()});
  for (const char* name : {"addmm", "baddbmm"})
    r.add(GpuOpInfo{name, run_add_product, float_dtypes()});
  r.add(GpuOpInfo{"linear", run_linear, float_dtypes()});
}

}  // namespace pf::gpu
