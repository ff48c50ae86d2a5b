// Matrix products: linear, matmul (every PyTorch rank case, broadcasting batch
// dims), mm, bmm, addmm, baddbmm. Sums run in float64 and round once to the
// output dtype. Operands must share one floating dtype (PyTorch does not
// promote here either). Also outer, which PyTorch computes as a broadcast mul
// and so promotes like mul.
#include <algorithm>

#include "evaluator/ops/elementwise.h"
#include "evaluator/ops/gemm.h"
#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/tensordot_plan.h"

namespace pf {
namespace {

using namespace layout;

struct MatmulPlan {
  Shape batch;  // broadcast batch dims
  int64_t m = 1, k = 1, n = 1;
  bool a_vector = false, b_vector = false;
  Shape out;
};

Result<MatmulPlan> plan_matmul(const ArgReader& a, const Shape& sa, const Shape& sb) {
  if (sa.empty() || sb.empty()) {
    return op_error(a, "both arguments need at least 1 dimension, got shapes " + shape_str(sa) +
                           " and " + shape_str(sb));
  }
  MatmulPlan p;
  p.a_vector = sa.size() == 1;
  p.b_vector = sb.size() == 1;
  Shape a2 = p.a_vector ? Shape{1, sa[0]} : sa;
  Shape b2 = p.b_vector ? Shape{sb[0], 1} : sb;
  p.m = a2[a2.size() - 2];
  p.k = a2.back();
  p.n = b2.back();
  if (b2[b2.size() - 2] != p.k) {
    return op_error(a, "shapes " + shape_str(sa) + " and " + shape_str(sb) +
                           " cannot be multiplied (" + std::to_string(p.k) +
                           " != " + std::to_string(b2[b2.size() - 2]) + ")");
  }
  Shape ba(a2.begin(), a2.end() - 2), bb(b2.begin(), b2.end() - 2);
  auto batch = broadcast_shapes(ba, bb);
  if (!batch.ok()) return op_error(a, "batch dims do not broadcast: " + batch.error().message);
  p.batch = *batch;
  p.out = p.batch;
  if (!p.a_vector) p.out.push_back(p.m);
  if (!p.b_vector) p.out.push_back(p.n);
  return p;
}

// A view of a 1-d operand as a matrix: [k] -> [1, k] (row) or [k, 1] (column).
Tensor as_matrix(const Tensor& t, bool row) {
  int64_t k = t.shape()[0], s = t.strides()[0];
  return row ? Tensor::view_of(t, {1, k}, {k * s, s}, t.offset())
             : Tensor::view_of(t, {k, 1}, {s, s}, t.offset());
}

// Products of a and b (already matrices or batches of them) broadcast to
// p.batch; row-major [batch..., m, n] doubles.
std::vector<double> batched_product(const Tensor& a, const Tensor& b, const MatmulPlan& p) {
  Shape ashape = p.batch, bshape = p.batch;
  ashape.insert(ashape.end(), {p.m, p.k});
  bshape.insert(bshape.end(), {p.k, p.n});
  std::vector<double> av = read_doubles(broadcast_view(a, ashape));
  Tensor bv = broadcast_view(b, bshape);
  Geometry g = geometry_of(bv);  // transpose the last two dims: Bt is [batch..., n, k]
  std::swap(g.shape[g.shape.size() - 1], g.shape[g.shape.size() - 2]);
  std::swap(g.strides[g.strides.size() - 1], g.strides[g.strides.size() - 2]);
  std::vector<double> btv = read_doubles(view_with(bv, g));
  int64_t batches = shape_numel(p.batch);
  std::vector<double> out(static_cast<size_t>(batches * p.m * p.n));
  for (int64_t i = 0; i < batches; ++i) {
    gemm_nt(av.data() + i * p.m * p.k, btv.data() + i * p.n * p.k, out.data() + i * p.m * p.n, p.m,
            p.n, p.k);
  }
  return out;
}

std::vector<double> matmul_values(const Tensor& a, const Tensor& b, const MatmulPlan& p) {
  Tensor a2 = p.a_vector ? as_matrix(a, true) : a;
  Tensor b2 = p.b_vector ? as_matrix(b, false) : b;
  return batched_product(a2, b2, p);
}

template <typename T>
Status check_operands(const BoundArgs<T>& a, std::vector<size_t> params) {
  DType first = dtype_of(a.tensor(params[0]));
  PF_TRY(require_floating(a, params[0], first));
  for (size_t i : params) {
    if (a.is_tensor(i)) PF_TRY(require_same_dtype(a, i, first, dtype_of(a.tensor(i))));
  }
  return ok_status();
}

// Rank requirements of mm/bmm-style ops (exact ranks, no broadcasting).
template <typename T>
Status require_rank(const BoundArgs<T>& a, size_t i, size_t rank) {
  const Shape& s = shape_of(a.tensor(i));
  if (s.size() == rank) return ok_status();
  return a.error(i, "expects a " + std::to_string(rank) + "-d tensor, got shape " + shape_str(s));
}

// --- matmul / mm / bmm -------------------------------------------------------------

OpInfo product_op(std::string name, std::vector<std::string> aliases, size_t rank,
                  std::string doc) {
  OpInfo op;
  op.name = std::move(name);
  op.aliases = std::move(aliases);
  op.params = {param_tensor("input"), param_tensor(rank ? "mat2" : "other")};
  op.doc = std::move(doc);
  auto plan = [rank](const auto& a) -> Result<MatmulPlan> {
    PF_TRY(check_operands(a, {0, 1}));
    if (rank) {
      PF_TRY(require_rank(a, 0, rank));
      PF_TRY(require_rank(a, 1, rank));
      const Shape& sa = shape_of(a.tensor(0));
      const Shape& sb = shape_of(a.tensor(1));
      if (rank == 3 && sa[0] != sb[0]) {
        return op_error(a, "batch sizes differ: " + shape_str(sa) + " and " + shape_str(sb));
      }
    }
    return plan_matmul(a, shape_of(a.tensor(0)), shape_of(a.tensor(1)));
  };
  op.infer = [plan](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(MatmulPlan p, plan(a));
    return std::vector<TensorType>{TensorType{a.tensor(0).dtype, p.out}};
  };
  op.cpu = [plan](const BoundArgs<Tensor>& a,
                  const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(MatmulPlan p, plan(a));
    std::vector<double> v = matmul_values(a.tensor(0), a.tensor(1), p);
    return std::vector<Tensor>{Tensor::from_doubles(out[0].dtype, out[0].shape, v)};
  };
  return op;
}

// --- addmm / baddbmm: beta * input + alpha * (mat1 @ mat2) ----------------------------------

OpInfo add_product_op(std::string name, std::vector<std::string> aliases, size_t rank) {
  OpInfo op;
  op.name = std::move(name);
  op.aliases = std::move(aliases);
  std::string m1 = rank == 2 ? "mat1" : "batch1", m2 = rank == 2 ? "mat2" : "batch2";
  ParamDef beta_p = param_real("beta", 1.0), alpha_p = param_real("alpha", 1.0);
  beta_p.keyword_only = alpha_p.keyword_only = true;
  op.params = {param_tensor("input"), param_tensor(m1), param_tensor(m2), beta_p, alpha_p};
  op.doc = "beta * input + alpha * (" + m1 + " @ " + m2 + "), input broadcast to the product";
  auto plan = [rank](const auto& a) -> Result<MatmulPlan> {
    PF_TRY(check_operands(a, {0, 1, 2}));
    PF_TRY(require_rank(a, 1, rank));
    PF_TRY(require_rank(a, 2, rank));
    const Shape& sa = shape_of(a.tensor(1));
    const Shape& sb = shape_of(a.tensor(2));
    if (rank == 3 && sa[0] != sb[0]) {
      return op_error(a, "batch sizes differ: " + shape_str(sa) + " and " + shape_str(sb));
    }
    PF_ASSIGN(MatmulPlan p, plan_matmul(a, sa, sb));
    auto b = broadcast_shapes(shape_of(a.tensor(0)), p.out);
    if (!b.ok() || *b != p.out) {
      return a.error(0, "shape " + shape_str(shape_of(a.tensor(0))) +
                            " does not broadcast to the product's shape " + shape_str(p.out));
    }
    return p;
  };
  op.infer = [plan](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(MatmulPlan p, plan(a));
    return std::vector<TensorType>{TensorType{a.tensor(0).dtype, p.out}};
  };
  op.cpu = [plan](const BoundArgs<Tensor>& a,
                  const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(MatmulPlan p, plan(a));
    PF_ASSIGN(double beta, a.real(3));
    PF_ASSIGN(double alpha, a.real(4));
    std::vector<double> v = matmul_values(a.tensor(1), a.tensor(2), p);
    // beta == 0 ignores input entirely (NaN/inf in it do not propagate), as in PyTorch.
    std::vector<double> bias =
        beta == 0 ? std::vector<double>{} : read_doubles(broadcast_view(a.tensor(0), p.out));
    for (size_t i = 0; i < v.size(); ++i) v[i] = alpha * v[i] + (beta == 0 ? 0.0 : beta * bias[i]);
    return std::vector<Tensor>{Tensor::from_doubles(out[0].dtype, out[0].shape, v)};
  };
  return op;
}

// --- linear: input @ weight.T + bias --------------------------------------------------------

template <typename T>
Result<Shape> linear_shape(const BoundArgs<T>& a) {
  PF_TRY(check_operands(a, {0, 1, 2}));
  const Shape& x = shape_of(a.tensor(0));
  const Shape& w = shape_of(a.tensor(1));
  if (x.empty()) return a.error(0, "expects at least 1 dimension");
  if (w.empty() || w.size() > 2) {
    return a.error(1, "expects a 1-d or 2-d weight, got shape " + shape_str(w));
  }
  if (w.back() != x.back()) {
    return op_error(a, "input " + shape_str(x) + " and weight " + shape_str(w) +
                           " do not fit: in_features " + std::to_string(x.back()) +
                           " != " + std::to_string(w.back()));
  }
  Shape out(x.begin(), x.end() - 1);
  if (w.size() == 2) out.push_back(w[0]);
  if (a.is_tensor(2)) {
    const Shape& b = shape_of(a.tensor(2));
    auto bs = broadcast_shapes(b, out);
    if (!bs.ok() || *bs != out) {
      return a.error(
          2, "bias shape " + shape_str(b) + " does not broadcast to the output " + shape_str(out));
    }
  }
  return out;
}

OpInfo linear_op() {
  OpInfo op;
  op.name = "linear";
  op.aliases = {"torch._C._nn.linear", "torch.nn.functional.linear"};
  op.params = {param_tensor("input"), param_tensor("weight"), param_opt_tensor("bias")};
  op.doc = "input @ weight.T + bias (weight [out_features, in_features])";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(Shape out, linear_shape(a));
    return std::vector<TensorType>{TensorType{a.tensor(0).dtype, out}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    const Tensor& w = a.tensor(1);
    int64_t in = x.shape().back();
    int64_t rows = shape_numel(Shape(x.shape().begin(), x.shape().end() - 1));
    int64_t cols = w.dim() == 2 ? w.shape()[0] : 1;
    std::vector<double> xv = read_doubles(x);
    std::vector<double> wv = read_doubles(w);  // [out, in] is already Bt
    std::vector<double> y(static_cast<size_t>(rows * cols));
    if (in == 0) {
      std::fill(y.begin(), y.end(), 0.0);
    } else {
      gemm_nt(xv.data(), wv.data(), y.data(), rows, cols, in);
    }
    if (a.is_tensor(2)) {
      std::vector<double> b = read_doubles(broadcast_view(a.tensor(2), out[0].shape));
      for (size_t i = 0; i < y.size(); ++i) y[i] += b[i];
    }
    return std::vector<Tensor>{Tensor::from_doubles(out[0].dtype, out[0].shape, y)};
  };
  return op;
}

// outer(input, vec2): [n] x [m] -> [n, m], each product rounded once like mul
// (PyTorch computes it as input[:, None] * vec2 and promotes the same way).
OpInfo outer_op() {
  OpInfo op;
  op.name = "outer";
  op.aliases = {"torch.outer", "Tensor.outer", "torch.ger", "Tensor.ger"};
  op.params = {tensor_param("input"), tensor_param("vec2"), ignored_param("out")};
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    for (size_t i = 0; i < 2; ++i) {
      if (a.tensor(i).shape.size() != 1) {
        return a.error(i, "expects a 1-d tensor, got shape " + shape_str(a.tensor(i).shape));
      }
    }
    PF_ASSIGN(DType t, promote_params(a, {0, 1}));
    return std::vector<TensorType>{{t, {a.tensor(0).shape[0], a.tensor(1).shape[0]}}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    DType t = out[0].dtype;
    const Shape& shape = out[0].shape;
    // As [n, 1] * [1, m]: the operands broadcast to the output.
    Tensor col = Tensor::view_of(a.tensor(0), {shape[0], 1}, {a.tensor(0).strides()[0], 0},
                                 a.tensor(0).offset());
    Tensor result = Tensor::zeros(t, shape);
    Tensor x = broadcast_to(col, shape), y = broadcast_to(a.tensor(1), shape);
    for (int64_t i = 0, n = result.numel(); i < n; ++i) {
      if (is_floating(t)) {
        double p = round_to_dtype(x.get(i), t) * round_to_dtype(y.get(i), t);
        result.set(i, p);
      } else {
        result.set_int(i, static_cast<int64_t>(static_cast<uint64_t>(x.get_int(i)) *
                                               static_cast<uint64_t>(y.get_int(i))));
      }
    }
    return std::vector<Tensor>{result};
  };
  op.doc = "outer product of two 1-d tensors";
  return op;
}

// --- kron -----------------------------------------------------------------------------------

// kron(a, b) as PyTorch computes it: a viewed as [a0, 1, a1, 1, ...] times b
// viewed as [1, b0, 1, b1, ...] (shapes padded with leading 1s to one rank),
// the product read as [a0 * b0, a1 * b1, ...].
struct KronViews {
  Shape a_shape, b_shape, product, out;
  Strides a_strides, b_strides;  // of the interleaved views
};

template <typename T>
KronViews kron_views(const T& a, const T& b) {
  Shape sa = shape_of(a), sb = shape_of(b);
  const size_t rank = std::max(sa.size(), sb.size());
  sa.insert(sa.begin(), rank - sa.size(), 1);
  sb.insert(sb.begin(), rank - sb.size(), 1);
  KronViews k;
  for (size_t d = 0; d < rank; ++d) {
    k.product.push_back(sa[d]);
    k.product.push_back(sb[d]);
    k.out.push_back(sa[d] * sb[d]);
  }
  k.a_shape = sa;
  k.b_shape = sb;
  return k;
}

Tensor interleaved(const Tensor& t, const Shape& padded, const Shape& product, bool first) {
  const Tensor p = reshape_tensor(t, padded);
  Strides st(product.size(), 0);
  for (size_t d = 0; d < padded.size(); ++d) st[2 * d + (first ? 0 : 1)] = p.strides()[d];
  return Tensor::view_of(p, product, st, p.offset());
}

OpInfo kron_op() {
  OpInfo op;
  op.name = "kron";
  op.aliases = {"torch.kron", "Tensor.kron"};
  op.params = {tensor_param("input"), tensor_param("other"), ignored_param("out")};
  op.doc = "Kronecker product: every element of input times a block of other";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(DType t, promote_params(a, {0, 1}));
    return std::vector<TensorType>{{t, kron_views(a.tensor(0), a.tensor(1)).out}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const DType t = out[0].dtype;
    const KronViews k = kron_views(a.tensor(0), a.tensor(1));
    const Tensor x = interleaved(a.tensor(0), k.a_shape, k.product, true);
    const Tensor y = interleaved(a.tensor(1), k.b_shape, k.product, false);
    Tensor result = Tensor::zeros(t, k.product);
    for (int64_t i = 0, n = result.numel(); i < n; ++i) {
      if (is_floating(t)) {
        result.set(i, round_to_dtype(x.get(i), t) * round_to_dtype(y.get(i), t));
      } else if (t == DType::boolean) {
        result.set_int(i, x.get_int(i) != 0 && y.get_int(i) != 0 ? 1 : 0);
      } else {
        result.set_int(i, static_cast<int64_t>(static_cast<uint64_t>(x.get_int(i)) *
                                               static_cast<uint64_t>(y.get_int(i))));
      }
    }
    return std::vector<Tensor>{Tensor::view_of(result, k.out, contiguous_strides(k.out), 0)};
  };
  return op;
}

// --- tensordot ---------------------------------------------------------------------------

// dims: an int n (a's last n dims with b's first n) or two lists of dims
// (also two ints). Returns a's and b's contracted dims, in pairing order.
Result<std::pair<std::vector<int64_t>, std::vector<int64_t>>> tensordot_dims(const ArgReader& a,
                                                                             int64_t ra,
                                                                             int64_t rb) {
  const Arg& dims = a.arg(2);
  std::vector<int64_t> da, db;
  if (dims.kind == Arg::Kind::integer) {
    if (dims.i < 0 || dims.i > std::min(ra, rb)) {
      return a.error(2,
                     "dims must be between 0 and the smaller rank, got " + std::to_string(dims.i));
    }
    for (int64_t k = 0; k < dims.i; ++k) {
      da.push_back(ra - dims.i + k);
      db.push_back(k);
    }
  } else if (dims.is_sequence() && dims.items.size() == 2) {
    auto read = [&](const Arg& v, int64_t rank, std::vector<int64_t>& out) -> Status {
      std::vector<const Arg*> items;
      if (v.kind == Arg::Kind::integer) items.push_back(&v);
      if (v.is_sequence()) {
        for (const auto& item : v.items) items.push_back(&item);
      }
      if (items.empty() && !v.is_sequence())
        return a.error(2, "expects dims as ints or lists of ints");
      for (const Arg* item : items) {
        if (item->kind != Arg::Kind::integer)
          return a.error(2, "expects dims as ints or lists of ints");
        const int64_t d = item->i < 0 ? item->i + rank : item->i;
        if (d < 0 || d >= rank)
          return a.error(2, "dim " + std::to_string(item->i) + " out of range");
        if (std::find(out.begin(), out.end(), d) != out.end())
          return a.error(2, "a dim appears twice");
        out.push_back(d);
      }
      return ok_status();
    };
    PF_TRY(read(dims.items[0], ra, da));
    PF_TRY(read(dims.items[1], rb, db));
    if (da.size() != db.size()) return a.error(2, "both dim lists must have the same length");
  } else {
    return a.error(2, "dims must be an int or a pair of dim lists");
  }
  return std::make_pair(da, db);
}

}  // namespace

Result<TensordotPlan> tensordot_plan(const ArgReader& a, const Shape& sa, const Shape& sb) {
  PF_ASSIGN(auto dims,
            tensordot_dims(a, static_cast<int64_t>(sa.size()), static_cast<int64_t>(sb.size())));
  TensordotPlan p;
  for (size_t k = 0; k < dims.first.size(); ++k) {
    if (sa[dims.first[k]] != sb[dims.second[k]]) {
      return a.error(2, "contracted dims differ in size: " + std::to_string(sa[dims.first[k]]) +
                            " and " + std::to_string(sb[dims.second[k]]));
    }
    p.k *= sa[dims.first[k]];
  }
  for (int64_t d = 0; d < static_cast<int64_t>(sa.size()); ++d) {
    if (std::find(dims.first.begin(), dims.first.end(), d) != dims.first.end()) continue;
    p.perm_a.push_back(d);
    p.out.push_back(sa[d]);
    p.m *= sa[d];
  }
  for (int64_t d : dims.first) p.perm_a.push_back(d);
  for (int64_t d = 0; d < static_cast<int64_t>(sb.size()); ++d) {
    if (std::find(dims.second.begin(), dims.second.end(), d) != dims.second.end()) continue;
    p.perm_bt.push_back(d);
    p.out.push_back(sb[d]);
    p.n *= sb[d];
  }
  for (int64_t d : dims.second) p.perm_bt.push_back(d);
  return p;
}

namespace {

template <typename T>
Result<TensordotPlan> plan_tensordot(const BoundArgs<T>& a) {
  PF_TRY(check_operands(a, {0, 1}));
  return tensordot_plan(a, shape_of(a.tensor(0)), shape_of(a.tensor(1)));
}

// Row-major values of t permuted by perm.
std::vector<double> permuted_values(const Tensor& t, const std::vector<int64_t>& perm) {
  Shape shape;
  Strides strides;
  for (int64_t d : perm) {
    shape.push_back(t.shape()[d]);
    strides.push_back(t.strides()[d]);
  }
  return Tensor::view_of(t, shape, strides, t.offset()).to_doubles();
}

OpInfo tensordot_op() {
  OpInfo op;
  op.name = "tensordot";
  op.aliases = {"torch.tensordot", "torch.functional.tensordot"};
  op.params = {param_tensor("a"), param_tensor("b"),
               param("dims", ParamKind::scalar, Arg::make_int(2)), ignored_param("out")};
  op.doc = "sums the products over the paired dims of a and b (an int n: a's last n, b's first n)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(TensordotPlan p, plan_tensordot(a));
    return std::vector<TensorType>{{a.tensor(0).dtype, p.out}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(TensordotPlan p, plan_tensordot(a));
    const std::vector<double> x = permuted_values(a.tensor(0), p.perm_a);
    const std::vector<double> yt = permuted_values(a.tensor(1), p.perm_bt);
    std::vector<double> c(static_cast<size_t>(p.m * p.n));
    gemm_nt(x.data(), yt.data(), c.data(), p.m, p.n, p.k);
    return std::vector<Tensor>{Tensor::from_doubles(out[0].dtype, out[0].shape, c)};
  };
  return op;
}

}  // namespace

void register_linalg_ops(OpRegistry& r) {
  r.add(kron_op());
  r.add(tensordot_op());
  r.add(outer_op());
  r.add(linear_op());
  r.add(
      product_op("matmul", {"torch.matmul", "Tensor.matmul", "operator.matmul"}, 0,
                 "matrix product with PyTorch's rank rules (1-d operands, broadcast batch dims)"));
  r.add(product_op("mm", {"torch.mm", "Tensor.mm"}, 2, "product of two matrices"));
  r.add(product_op("bmm", {"torch.bmm", "Tensor.bmm"}, 3,
                   "batched product of [b, n, m] and [b, m, p]"));
  r.add(add_product_op("addmm", {"torch.addmm", "Tensor.addmm"}, 2));
  r.add(add_product_op("baddbmm", {"torch.baddbmm", "Tensor.baddbmm"}, 3));
}

}  // namespace pf
