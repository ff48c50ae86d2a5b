// einsum as PyTorch's at::einsum builds it from other ops (no kernel of its
// own; the equation was validated by the CPU op's shape rule):
// - repeated labels within an operand take the diagonal (a view);
// - dims only one operand has and the output (and later operands) do not
//   are summed first (one sum per operand);
// - operands contract left to right (PyTorch's order without opt_einsum):
//   with contracted dims, sumproduct_pair's permute + reshape + bmm (the
//   reshape copies only non-contiguous operands); without, one broadcast mul;
// - the result is a permuted view in the output's label order.
// Size-1 (broadcast) dims are dropped from the side that has them, so bmm
// only sees real batch dims.
#include <algorithm>
#include <map>

#include "evaluator/gpu/gpu_op_call.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/op_support.h"

namespace pf::gpu {
namespace {

// An operand: a tensor whose dims carry these dim ids (ellipsis dims are
// 0 .. ell_rank - 1, labels ell_rank + character).
struct Term {
  DeviceTensor t;
  std::vector<int> ids;
};

bool has(const std::vector<int>& ids, int id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

int64_t size_of(const Term& x, int id) {
  const auto it = std::find(x.ids.begin(), x.ids.end(), id);
  return x.t.shape()[static_cast<size_t>(it - x.ids.begin())];
}

// Parses one side's labels: characters, '.' runs as one ellipsis (-1).
std::vector<int> labels_of(const std::string& text) {
  std::vector<int> out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '.') {
      out.push_back(-1);
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

// The operand's view with ids; repeated ids merge into their diagonal.
Term make_term(const DeviceTensor& t, const std::vector<int>& labels, int ell_rank) {
  const int named =
      static_cast<int>(std::count_if(labels.begin(), labels.end(), [](int l) { return l >= 0; }));
  const int own_ell = static_cast<int>(t.dim()) - named;
  Shape shape;
  Strides strides;
  std::vector<int> ids;
  size_t axis = 0;
  auto add = [&](int id) {
    const int64_t size = t.shape()[axis], stride = t.strides()[axis];
    ++axis;
    const auto it = std::find(ids.begin(), ids.end(), id);
    if (it != ids.end()) {
      strides[static_cast<size_t>(it - ids.begin())] += stride;  // diagonal
      return;
    }
    ids.push_back(id);
    shape.push_back(size);
    strides.push_back(stride);
  };
  for (int l : labels) {
    if (l < 0) {
      for (int e = 0; e < own_ell; ++e) add(ell_rank - own_ell + e);
    } else {
      add(ell_rank + l);
    }
  }
  return Term{DeviceTensor::view_of(t, shape, strides, t.offset()), ids};
}

// x without the dim `id` (it has size 1): index 0 of it, a view.
void drop(Term& x, int id) {
  const size_t d = static_cast<size_t>(std::find(x.ids.begin(), x.ids.end(), id) - x.ids.begin());
  Shape s = x.t.shape();
  Strides st = x.t.strides();
  s.erase(s.begin() + static_cast<std::ptrdiff_t>(d));
  st.erase(st.begin() + static_cast<std::ptrdiff_t>(d));
  x.ids.erase(x.ids.begin() + static_cast<std::ptrdiff_t>(d));
  x.t = DeviceTensor::view_of(x.t, s, st, x.t.offset());
}

// Sums the dims of x not in `keep`.
Status sum_out(PlanBuilder& b, Term& x, const std::vector<int>& keep) {
  std::vector<int64_t> dims;
  std::vector<int> rest;
  for (size_t d = 0; d < x.ids.size(); ++d) {
    if (has(keep, x.ids[d])) {
      rest.push_back(x.ids[d]);
    } else {
      dims.push_back(static_cast<int64_t>(d));
    }
  }
  if (dims.empty()) return ok_status();
  PF_ASSIGN(x.t, call_gpu_op1(b, "sum", {x.t, int_list(dims)}));
  x.ids = rest;
  return ok_status();
}

// x's dims in the order of `ids` (a view), with size-1 dims where x lacks one.
DeviceTensor arranged(const Term& x, const std::vector<int>& ids) {
  Shape s;
  Strides st;
  for (int id : ids) {
    if (has(x.ids, id)) {
      const size_t d =
          static_cast<size_t>(std::find(x.ids.begin(), x.ids.end(), id) - x.ids.begin());
      s.push_back(x.t.shape()[d]);
      st.push_back(x.t.strides()[d]);
    } else {
      s.push_back(1);
      st.push_back(0);
    }
  }
  return DeviceTensor::view_of(x.t, s, st, x.t.offset());
}

int64_t product(const Term& x, const std::vector<int>& ids) {
  int64_t p = 1;
  for (int id : ids) p *= size_of(x, id);
  return p;
}

// PyTorch's sumproduct_pair: a and b contracted over the shared ids not in keep.
Result<Term> contract(PlanBuilder& b, Term a, Term c, const std::vector<int>& keep) {
  for (int id : std::vector<int>(a.ids)) {
    if (!has(c.ids, id)) continue;
    if (size_of(a, id) == 1 && size_of(c, id) != 1)
      drop(a, id);
    else if (size_of(c, id) == 1 && size_of(a, id) != 1)
      drop(c, id);
  }
  std::vector<int> keep_a = keep, keep_c = keep;
  keep_a.insert(keep_a.end(), c.ids.begin(), c.ids.end());
  keep_c.insert(keep_c.end(), a.ids.begin(), a.ids.end());
  PF_TRY(sum_out(b, a, keep_a));
  PF_TRY(sum_out(b, c, keep_c));
  std::vector<int> batch, lo, ro, sum;
  for (int id : a.ids) {
    if (!has(c.ids, id))
      lo.push_back(id);
    else if (has(keep, id))
      batch.push_back(id);
    else
      sum.push_back(id);
  }
  for (int id : c.ids) {
    if (!has(a.ids, id)) ro.push_back(id);
  }
  std::vector<int> out_ids = batch;
  out_ids.insert(out_ids.end(), lo.begin(), lo.end());
  out_ids.insert(out_ids.end(), ro.begin(), ro.end());
  if (sum.empty()) {
    PF_ASSIGN(DeviceTensor y, call_gpu_op1(b, "mul", {arranged(a, out_ids), arranged(c, out_ids)}));
    return Term{y, out_ids};
  }
  std::vector<int> a_order = batch, c_order = batch;
  a_order.insert(a_order.end(), lo.begin(), lo.end());
  a_order.insert(a_order.end(), sum.begin(), sum.end());
  c_order.insert(c_order.end(), sum.begin(), sum.end());
  c_order.insert(c_order.end(), ro.begin(), ro.end());
  const int64_t nb = product(a, batch), nl = product(a, lo), ns = product(a, sum),
                nr = product(c, ro);
  PF_ASSIGN(DeviceTensor a3,
            call_gpu_op1(b, "reshape", {arranged(a, a_order), int_list({nb, nl, ns})}));
  PF_ASSIGN(DeviceTensor c3,
            call_gpu_op1(b, "reshape", {arranged(c, c_order), int_list({nb, ns, nr})}));
  PF_ASSIGN(DeviceTensor y3, call_gpu_op1(b, "bmm", {a3, c3}));
  Shape shape;
  for (int id : batch) shape.push_back(size_of(a, id));
  for (int id : lo) shape.push_back(size_of(a, id));
  for (int id : ro) shape.push_back(size_of(c, id));
  return Term{DeviceTensor::view_of(y3, shape, contiguous_strides(shape), y3.offset()), out_ids};
}

Result<std::vector<DeviceTensor>> run_einsum(const GpuArgs& a, const std::vector<TensorType>& out,
                                             PlanBuilder& b) {
  PF_ASSIGN(std::string eq, a.string(0));
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::vector<int>> terms;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(labels_of(lhs.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  const auto operands = a.tensors(1);
  int ell_rank = 0;
  std::map<int, int> counts;
  for (size_t i = 0; i < terms.size(); ++i) {
    int named = 0;
    for (int l : terms[i]) {
      if (l >= 0) {
        ++named;
        ++counts[l];
      }
    }
    if (has(terms[i], -1))
      ell_rank = std::max(ell_rank, static_cast<int>(operands[i]->dim()) - named);
  }
  std::vector<int> out_ids;
  if (arrow != std::string::npos) {
    for (int l : labels_of(eq.substr(arrow + 2))) {
      if (l < 0) {
        for (int e = 0; e < ell_rank; ++e) out_ids.push_back(e);
      } else {
        out_ids.push_back(ell_rank + l);
      }
    }
  } else {
    for (int e = 0; e < ell_rank; ++e) out_ids.push_back(e);
    for (const auto& [l, n] : counts) {
      if (n == 1) out_ids.push_back(ell_rank + l);  // std::map: ASCII order, upper case first
    }
  }
  std::vector<Term> ops;
  for (size_t i = 0; i < terms.size(); ++i)
    ops.push_back(make_term(*operands[i], terms[i], ell_rank));
  Term acc = ops[0];
  for (size_t i = 1; i < ops.size(); ++i) {
    std::vector<int> keep = out_ids;  // what the output and the later operands need
    for (size_t j = i + 1; j < ops.size(); ++j)
      keep.insert(keep.end(), ops[j].ids.begin(), ops[j].ids.end());
    PF_ASSIGN(acc, contract(b, acc, ops[i], keep));
  }
  for (int id : std::vector<int>(acc.ids)) {
    if (!has(out_ids, id) && size_of(acc, id) == 1) drop(acc, id);
  }
  PF_TRY(sum_out(b, acc, out_ids));
  DeviceTensor y = arranged(acc, out_ids);
  if (y.shape() != out[0].shape) {
    return make_error(ErrorCode::internal, "einsum produced " + tensor_type_str(y.type()) +
                                               ", expected " + tensor_type_str(out[0]));
  }
  return std::vector<DeviceTensor>{y};
}

}  // namespace

void register_gpu_einsum_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"einsum", run_einsum, float_dtypes()});
}

}  // namespace pf::gpu
