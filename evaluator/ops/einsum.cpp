// einsum: a general Einstein summation. The equation is parsed into labels
// (letters; "..." for broadcast dims); repeated labels within one operand take
// diagonals, labels absent from the output are summed, size-1 dims broadcast.
// Without "->" the output is the ellipsis dims followed by the labels used
// exactly once, in alphabetical order (upper case first), as in PyTorch.
#include <algorithm>
#include <map>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"

namespace pf {
namespace {

using namespace layout;

constexpr int kEllipsis = -1;

struct Term {
  std::vector<int> labels;  // characters, or kEllipsis
};

struct EinsumPlan {
  int ell_rank = 0;              // broadcast rank of the ellipsis dims
  std::vector<int> dims;         // every dim id: 0..ell_rank-1 ellipsis, then labels
  std::map<int, int64_t> sizes;  // dim id -> size
  std::vector<int> out_dims;     // dim ids of the output, in order
  std::vector<int> sum_dims;     // dim ids summed over
  // per operand: dim id of each of its axes
  std::vector<std::vector<int>> operand_dims;
  Shape out_shape;
};

Result<Term> parse_term(const ArgReader& a, const std::string& text) {
  Term t;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      if (text.compare(i, 3, "...") != 0) return a.error(0, "'.' must be part of '...'");
      if (std::count(t.labels.begin(), t.labels.end(), kEllipsis)) {
        return a.error(0, "a term can hold '...' only once");
      }
      t.labels.push_back(kEllipsis);
      i += 2;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      t.labels.push_back(c);
    } else {
      return a.error(0, std::string("invalid character '") + c + "' in the equation");
    }
  }
  return t;
}

Result<EinsumPlan> plan_einsum(const ArgReader& a, const std::vector<Shape>& shapes) {
  PF_ASSIGN(std::string eq, a.string(0));
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<Term> terms;
  size_t start = 0;
  while (true) {
    size_t comma = lhs.find(',', start);
    PF_ASSIGN(Term t, parse_term(a, lhs.substr(start, comma - start)));
    terms.push_back(std::move(t));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != shapes.size()) {
    return a.error(0, "the equation has " + std::to_string(terms.size()) + " operand terms but " +
                          std::to_string(shapes.size()) + " tensors were given");
  }
  EinsumPlan p;
  // Ellipsis ranks and broadcast ellipsis shape.
  Shape ell_shape;
  std::vector<int64_t> ell_ranks(terms.size(), 0);
  for (size_t i = 0; i < terms.size(); ++i) {
    int64_t named = 0;
    bool has_ell = false;
    for (int l : terms[i].labels) {
      if (l == kEllipsis) {
        has_ell = true;
      } else {
        ++named;
      }
    }
    int64_t rank = static_cast<int64_t>(shapes[i].size());
    if (rank < named || (!has_ell && rank != named)) {
      return a.error(1, "operand " + std::to_string(i) + " has shape " + shape_str(shapes[i]) +
                            " but its term names " + std::to_string(named) + " dims");
    }
    if (has_ell) {
      ell_ranks[i] = rank - named;
      size_t pos = std::find(terms[i].labels.begin(), terms[i].labels.end(), kEllipsis) -
                   terms[i].labels.begin();
      Shape sub(shapes[i].begin() + pos, shapes[i].begin() + pos + ell_ranks[i]);
      auto b = broadcast_shapes(ell_shape, sub);
      if (!b.ok()) return a.error(1, "'...' dims do not broadcast: " + b.error().message);
      ell_shape = *b;
    }
  }
  p.ell_rank = static_cast<int>(ell_shape.size());
  for (int d = 0; d < p.ell_rank; ++d) p.sizes[d] = ell_shape[d];
  // Label dims (ids start after the ellipsis dims) and their sizes.
  auto label_id = [&](int l) { return p.ell_rank + l; };
  std::map<int, int> counts;
  for (size_t i = 0; i < terms.size(); ++i) {
    std::vector<int> dims;
    size_t axis = 0;
    for (int l : terms[i].labels) {
      if (l == kEllipsis) {
        for (int64_t e = 0; e < ell_ranks[i]; ++e) {
          dims.push_back(static_cast<int>(p.ell_rank - ell_ranks[i] + e));
          ++axis;
        }
        continue;
      }
      ++counts[l];
      int id = label_id(l);
      int64_t size = shapes[i][axis++];
      auto it = p.sizes.find(id);
      if (it == p.sizes.end() || it->second == 1) {
        p.sizes[id] = size;
      } else if (size != it->second && size != 1) {
        return a.error(1, std::string("label '") + static_cast<char>(l) + "' has sizes " +
                              std::to_string(it->second) + " and " + std::to_string(size));
      }
      dims.push_back(id);
    }
    p.operand_dims.push_back(std::move(dims));
  }
  // Output dims.
  if (arrow != std::string::npos) {
    PF_ASSIGN(Term out, parse_term(a, eq.substr(arrow + 2)));
    for (int l : out.labels) {
      if (l == kEllipsis) {
        for (int d = 0; d < p.ell_rank; ++d) p.out_dims.push_back(d);
        continue;
      }
      if (!counts.count(l)) {
        return a.error(0, std::string("output label '") + static_cast<char>(l) +
                              "' does not appear in any operand");
      }
      if (std::count(out.labels.begin(), out.labels.end(), l) > 1) {
        return a.error(0, std::string("output label '") + static_cast<char>(l) +
                              "' appears more than once");
      }
      p.out_dims.push_back(label_id(l));
    }
  } else {
    for (int d = 0; d < p.ell_rank; ++d) p.out_dims.push_back(d);
    for (const auto& [l, n] : counts) {  // std::map: 'A'..'Z' sort before 'a'..'z'
      if (n == 1) p.out_dims.push_back(label_id(l));
    }
  }
  for (const auto& [id, size] : p.sizes) {
    if (std::find(p.out_dims.begin(), p.out_dims.end(), id) == p.out_dims.end()) {
      p.sum_dims.push_back(id);
    }
  }
  for (int id : p.out_dims) p.out_shape.push_back(p.sizes[id]);
  return p;
}

// Per operand and dim id: the stride to move along that dim (0 when the
// operand lacks it or broadcasts it; summed for repeated labels = diagonal).
std::vector<std::map<int, int64_t>> operand_strides(const EinsumPlan& p,
                                                    const std::vector<Shape>& shapes) {
  std::vector<std::map<int, int64_t>> out;
  for (size_t i = 0; i < shapes.size(); ++i) {
    Strides cs = contiguous_strides(shapes[i]);
    std::map<int, int64_t> m;
    for (size_t axis = 0; axis < shapes[i].size(); ++axis) {
      int id = p.operand_dims[i][axis];
      if (shapes[i][axis] == 1 && p.sizes.at(id) != 1) continue;
      m[id] += cs[axis];
    }
    out.push_back(std::move(m));
  }
  return out;
}

// Storage offsets of one operand over the index space of `dims` (row-major).
std::vector<int64_t> offsets_over(const std::vector<int>& dims, const EinsumPlan& p,
                                  const std::map<int, int64_t>& strides) {
  Shape shape;
  Strides st;
  for (int id : dims) {
    shape.push_back(p.sizes.at(id));
    auto it = strides.find(id);
    st.push_back(it == strides.end() ? 0 : it->second);
  }
  int64_t n = shape_numel(shape);
  std::vector<int64_t> out(static_cast<size_t>(n));
  std::vector<int64_t> idx(shape.size(), 0);
  int64_t off = 0;
  for (int64_t e = 0; e < n; ++e) {
    out[e] = off;
    for (size_t d = shape.size(); d-- > 0;) {
      off += st[d];
      if (++idx[d] < shape[d]) break;
      off -= st[d] * shape[d];
      idx[d] = 0;
    }
  }
  return out;
}

std::vector<double> run_einsum(const EinsumPlan& p, const std::vector<const Tensor*>& ts) {
  std::vector<Shape> shapes;
  std::vector<std::vector<double>> vals;
  for (const Tensor* t : ts) {
    shapes.push_back(t->shape());
    vals.push_back(read_doubles(*t));
  }
  auto strides = operand_strides(p, shapes);
  size_t n_ops = ts.size();
  std::vector<std::vector<int64_t>> out_off, sum_off;
  for (size_t k = 0; k < n_ops; ++k) {
    out_off.push_back(offsets_over(p.out_dims, p, strides[k]));
    sum_off.push_back(offsets_over(p.sum_dims, p, strides[k]));
  }
  int64_t n_out = shape_numel(p.out_shape);
  int64_t n_sum = static_cast<int64_t>(sum_off[0].size());
  std::vector<double> out(static_cast<size_t>(n_out), 0.0);
  for (int64_t e = 0; e < n_out; ++e) {
    double acc = 0;
    if (n_ops == 2) {
      const double* a = vals[0].data() + out_off[0][e];
      const double* b = vals[1].data() + out_off[1][e];
      const int64_t* sa = sum_off[0].data();
      const int64_t* sb = sum_off[1].data();
      for (int64_t s = 0; s < n_sum; ++s) acc += a[sa[s]] * b[sb[s]];
    } else {
      for (int64_t s = 0; s < n_sum; ++s) {
        double prod = 1;
        for (size_t k = 0; k < n_ops; ++k) prod *= vals[k][out_off[k][e] + sum_off[k][s]];
        acc += prod;
      }
    }
    out[e] = acc;
  }
  return out;
}

template <typename T>
Result<EinsumPlan> checked_plan(const BoundArgs<T>& a) {
  auto ts = a.tensors(1);
  if (ts.empty()) return a.error(1, "expects at least one operand");
  std::vector<Shape> shapes;
  for (const T* t : ts) {
    if (dtype_of(*t) != dtype_of(*ts[0])) {
      return a.error(1, std::string("operands must share one dtype, got ") +
                            dtype_name(dtype_of(*ts[0])) + " and " + dtype_name(dtype_of(*t)));
    }
    if (dtype_of(*t) == DType::boolean) return a.error(1, "bool operands are not supported");
    shapes.push_back(shape_of(*t));
  }
  return plan_einsum(a, shapes);
}

}  // namespace

void register_einsum_ops(OpRegistry& r) {
  OpInfo op;
  op.name = "einsum";
  op.aliases = {"torch.einsum", "torch.functional.einsum"};
  op.params = {param_string("equation"), param_tensors("operands", true)};
  op.doc = "Einstein summation, e.g. einsum('bhqd,bhkd->bhqk', q, k)";
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(EinsumPlan p, checked_plan(a));
    return std::vector<TensorType>{TensorType{a.tensors(1)[0]->dtype, p.out_shape}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    PF_ASSIGN(EinsumPlan p, checked_plan(a));
    std::vector<double> v = run_einsum(p, a.tensors(1));
    return std::vector<Tensor>{Tensor::from_doubles(out[0].dtype, out[0].shape, v)};
  };
  r.add(std::move(op));
}

}  // namespace pf
