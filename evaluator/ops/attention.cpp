// scaled_dot_product_attention: softmax(q @ k^T * scale + mask) @ v, computed
// in float64 per query row. attn_mask is bool (True = may attend) or additive
// float, broadcast to [..., L, S]; is_causal masks j > i (top-left aligned);
// enable_gqa repeats key/value heads. A row with every key masked gives zeros,
// as PyTorch's fused kernels (and its math path since 2.5) do. dropout_p > 0
// is random and refused.
#include <cmath>
#include <limits>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

enum Param : size_t { kQuery, kKey, kValue, kMask, kDropout, kCausal, kScale, kGqa };

struct AttentionPlan {
  Shape batch;  // broadcast batch dims of q, k, v (after GQA head repeat)
  int64_t l = 0, s = 0, e = 0, ev = 0;
  int64_t gqa_repeat = 1;  // key/value head repeat factor
  Shape out;
};

template <typename T>
Result<AttentionPlan> plan_attention(const BoundArgs<T>& a) {
  DType dt = dtype_of(a.tensor(kQuery));
  PF_TRY(require_floating(a, kQuery, dt));
  PF_TRY(require_same_dtype(a, kKey, dt, dtype_of(a.tensor(kKey))));
  PF_TRY(require_same_dtype(a, kValue, dt, dtype_of(a.tensor(kValue))));
  const Shape& q = shape_of(a.tensor(kQuery));
  const Shape& k = shape_of(a.tensor(kKey));
  const Shape& v = shape_of(a.tensor(kValue));
  for (size_t i : {kQuery, kKey, kValue}) {
    if (shape_of(a.tensor(i)).size() < 2) return a.error(i, "expects at least 2 dims");
  }
  AttentionPlan p;
  p.l = q[q.size() - 2];
  p.e = q.back();
  p.s = k[k.size() - 2];
  p.ev = v.back();
  if (k.back() != p.e) {
    return a.error(kKey, "key's last dim " + std::to_string(k.back()) + " != query's " +
                             std::to_string(p.e));
  }
  if (v[v.size() - 2] != p.s) {
    return a.error(kValue, "value has " + std::to_string(v[v.size() - 2]) + " positions, key has " +
                               std::to_string(p.s));
  }
  Shape qb(q.begin(), q.end() - 2), kb(k.begin(), k.end() - 2), vb(v.begin(), v.end() - 2);
  PF_ASSIGN(bool gqa, a.boolean(kGqa));
  if (gqa && qb.size() >= 1 && kb.size() >= 1 && kb.back() != qb.back()) {
    int64_t hq = qb.back(), hk = kb.back();
    if (hk == 0 || hq % hk != 0 || vb.empty() || vb.back() != hk) {
      return a.error(kGqa, "query heads (" + std::to_string(hq) +
                               ") must be a multiple of key/value heads (" + std::to_string(hk) + ")");
    }
    p.gqa_repeat = hq / hk;
    kb.back() = vb.back() = hq;
  }
  auto b1 = broadcast_shapes(qb, kb);
  auto b2 = b1.ok() ? broadcast_shapes(*b1, vb) : b1;
  if (!b2.ok()) return op_error(a, "batch dims do not broadcast: " + b2.error().message);
  p.batch = *b2;
  p.out = p.batch;
  p.out.insert(p.out.end(), {p.l, p.ev});
  PF_ASSIGN(double dropout, a.real(kDropout));
  if (dropout != 0) {
    return a.error(kDropout, "dropout_p > 0 is random, which passforge graphs cannot be; use 0.0");
  }
  PF_ASSIGN(bool causal, a.boolean(kCausal));
  if (a.is_tensor(kMask)) {
    if (causal) return a.error(kMask, "attn_mask must be None when is_causal=True");
    const T& m = a.tensor(kMask);
    if (dtype_of(m) != DType::boolean && dtype_of(m) != dt) {
      return a.error(kMask, std::string("expects a bool mask or one of dtype ") + dtype_name(dt) +
                                ", got " + dtype_name(dtype_of(m)));
    }
    Shape scores = p.batch;
    scores.insert(scores.end(), {p.l, p.s});
    auto b = broadcast_shapes(shape_of(m), scores);
    if (!b.ok() || *b != scores) {
      return a.error(kMask, "shape " + shape_str(shape_of(m)) + " does not broadcast to " +
                                shape_str(scores));
    }
  }
  if (!a.is_none(kScale)) PF_TRY(a.real(kScale));
  return p;
}

// k or v ([..., Hk, S, D]) as the broadcast [batch..., S, D] operand, repeating
// each head gqa_repeat times (repeat_interleave on dim -3) without copying.
Tensor attention_operand(const Tensor& t, const AttentionPlan& p, int64_t last) {
  Tensor src = t;
  if (p.gqa_repeat > 1) {
    // [.., Hk, S, D] -> [.., Hk, r, S, D] (stride 0 on r) -> [.., Hk * r, S, D]
    Geometry g = geometry_of(t);
    size_t h = g.shape.size() - 3;
    g.shape.insert(g.shape.begin() + h + 1, p.gqa_repeat);
    g.strides.insert(g.strides.begin() + h + 1, 0);
    Tensor rep = Tensor::view_of(t, g.shape, g.strides, g.offset);
    Shape merged(g.shape.begin(), g.shape.begin() + h);
    merged.push_back(g.shape[h] * p.gqa_repeat);
    merged.insert(merged.end(), g.shape.begin() + h + 2, g.shape.end());
    src = reshape_tensor(rep, merged);
  }
  Shape shape = p.batch;
  shape.insert(shape.end(), {t.shape()[t.dim() - 2], last});
  return broadcast_view(src, shape);
}

Result<Tensor> run_attention(const BoundArgs<Tensor>& a, const AttentionPlan& p,
                             const TensorType& out_type) {
  Shape qshape = p.batch;
  qshape.insert(qshape.end(), {p.l, p.e});
  std::vector<double> q = read_doubles(broadcast_view(a.tensor(kQuery), qshape));
  std::vector<double> k = read_doubles(attention_operand(a.tensor(kKey), p, p.e));
  std::vector<double> v = read_doubles(attention_operand(a.tensor(kValue), p, p.ev));
  std::vector<double> mask;
  bool bool_mask = false;
  if (a.is_tensor(kMask)) {
    Shape scores = p.batch;
    scores.insert(scores.end(), {p.l, p.s});
    bool_mask = a.tensor(kMask).dtype() == DType::boolean;
    mask = read_doubles(broadcast_view(a.tensor(kMask), scores));
  }
  bool causal = a.boolean(kCausal).value_or(false);
  double scale = a.is_none(kScale) ? 1.0 / std::sqrt(static_cast<double>(p.e))
                                   : a.real(kScale).value_or(1.0);
  int64_t batches = shape_numel(p.batch);
  std::vector<double> out(static_cast<size_t>(batches * p.l * p.ev), 0.0);
  std::vector<double> w(static_cast<size_t>(p.s));
  const double neg_inf = -std::numeric_limits<double>::infinity();
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t i = 0; i < p.l; ++i) {
      const double* qi = q.data() + (b * p.l + i) * p.e;
      double mx = neg_inf;
      for (int64_t j = 0; j < p.s; ++j) {
        const double* kj = k.data() + (b * p.s + j) * p.e;
        double dot = 0;
        for (int64_t d = 0; d < p.e; ++d) dot += qi[d] * kj[d];
        double x = dot * scale;
        if (causal && j > i) x = neg_inf;
        if (!mask.empty()) {
          double m = mask[(b * p.l + i) * p.s + j];
          x = bool_mask ? (m != 0 ? x : neg_inf) : x + m;
        }
        w[j] = x;
        mx = std::max(mx, x);
      }
      double* oi = out.data() + (b * p.l + i) * p.ev;
      if (mx == neg_inf) continue;  // every key masked: zeros
      double sum = 0;
      for (int64_t j = 0; j < p.s; ++j) sum += (w[j] = std::exp(w[j] - mx));
      for (int64_t j = 0; j < p.s; ++j) {
        double pj = w[j] / sum;
        const double* vj = v.data() + (b * p.s + j) * p.ev;
        for (int64_t d = 0; d < p.ev; ++d) oi[d] += pj * vj[d];
      }
    }
  }
  return Tensor::from_doubles(out_type.dtype, out_type.shape, out);
}

}  // namespace

void register_attention_ops(OpRegistry& r) {
  OpInfo op;
  op.name = "scaled_dot_product_attention";
  op.aliases = {"torch.nn.functional.scaled_dot_product_attention",
                "torch._C._nn.scaled_dot_product_attention"};
  ParamDef scale = param_opt_real("scale"), gqa = param_bool("enable_gqa", false);
  scale.keyword_only = gqa.keyword_only = true;
  op.params = {param_tensor("query"),          param_tensor("key"),
               param_tensor("value"),          param_opt_tensor("attn_mask"),
               param_real("dropout_p", 0.0),  param_bool("is_causal", false),
               scale,                          gqa};
  op.doc = "softmax(q @ k^T * scale + mask) @ v (scale defaults to 1/sqrt(E))";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(AttentionPlan p, plan_attention(a));
    return std::vector<TensorType>{TensorType{a.tensor(kQuery).dtype, p.out}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(AttentionPlan p, plan_attention(a));
    PF_ASSIGN(Tensor t, run_attention(a, p, out[0]));
    return std::vector<Tensor>{t};
  };
  r.add(std::move(op));
}

}  // namespace pf
