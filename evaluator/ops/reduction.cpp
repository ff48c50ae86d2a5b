// Reductions with an identity: sum, nansum, mean, nanmean, prod, logsumexp,
// all, any, count_nonzero.
// Integer sums and products are exact 64-bit (int64 output, wrapping like
// PyTorch); float reductions accumulate in float64 and round once.
#include <cmath>
#include <cstdint>
#include <limits>

#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/reduce_util.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

std::vector<ParamDef> reduce_params(ParamKind dim_kind, bool dim_required = false,
                                    bool with_dtype = false) {
  std::vector<ParamDef> p = {
      tensor_param("input"),
      dim_required ? param("dim", dim_kind) : param("dim", dim_kind, Arg::make_none()),
      param("keepdim", ParamKind::boolean, Arg::make_bool(false))};
  if (with_dtype) p.push_back(kwarg("dtype", ParamKind::optional_dtype, Arg::make_none()));
  return p;
}

// sum/prod: dtype=, else int64 for integers and bool, else the input's.
Result<DType> widening_dtype(const ArgReader& a, DType in) {
  if (!a.is_none(3)) return a.dtype(3);
  return is_floating(in) ? in : DType::int64;
}

int64_t wrap_sum(const int64_t* v, int64_t n) {
  uint64_t acc = 0;
  for (int64_t i = 0; i < n; ++i) acc += static_cast<uint64_t>(v[i]);
  return static_cast<int64_t>(acc);
}

int64_t wrap_prod(const int64_t* v, int64_t n) {
  uint64_t acc = 1;
  for (int64_t i = 0; i < n; ++i) acc *= static_cast<uint64_t>(v[i]);
  return static_cast<int64_t>(acc);
}

double sum(const double* v, int64_t n, DType) {
  double acc = 0;
  for (int64_t i = 0; i < n; ++i) acc += v[i];
  return acc;
}

OpInfo sum_op() {
  ReduceOpDef d;
  d.name = "sum";
  d.aliases = {"torch.sum", "Tensor.sum"};
  d.params = reduce_params(ParamKind::optional_int_list, false, true);
  d.out_dtype = widening_dtype;
  d.fold = sum;
  d.int_fold = wrap_sum;
  d.doc = "sum over dim (all dims if None); integers sum to int64";
  return reduce_op(std::move(d));
}

OpInfo nansum_op() {
  ReduceOpDef d;
  d.name = "nansum";
  d.aliases = {"torch.nansum", "Tensor.nansum"};
  d.params = reduce_params(ParamKind::optional_int_list, false, true);
  d.out_dtype = widening_dtype;
  d.fold = [](const double* v, int64_t n, DType) {
    double acc = 0;
    for (int64_t i = 0; i < n; ++i) acc += std::isnan(v[i]) ? 0.0 : v[i];
    return acc;
  };
  d.int_fold = wrap_sum;
  d.doc = "sum treating NaN as zero";
  return reduce_op(std::move(d));
}

OpInfo mean_op() {
  ReduceOpDef d;
  d.name = "mean";
  d.aliases = {"torch.mean", "Tensor.mean"};
  d.params = reduce_params(ParamKind::optional_int_list, false, true);
  d.out_dtype = [](const ArgReader& a, DType in) -> Result<DType> {
    DType t = in;
    if (!a.is_none(3)) {
      PF_ASSIGN(t, a.dtype(3));
    }
    if (!is_floating(t)) {
      return a.error(0, std::string("mean needs a floating input or dtype=, got ") + dtype_name(t));
    }
    return t;
  };
  d.fold = [](const double* v, int64_t n, DType) {
    return sum(v, n, DType::float64) / static_cast<double>(n);
  };
  d.convert_first = true;
  d.doc = "mean over dim (all dims if None)";
  return reduce_op(std::move(d));
}

OpInfo prod_op() {
  ReduceOpDef d;
  d.name = "prod";
  d.aliases = {"torch.prod", "Tensor.prod"};
  d.params = reduce_params(ParamKind::optional_integer, false, true);
  d.out_dtype = widening_dtype;
  d.fold = [](const double* v, int64_t n, DType) {
    double acc = 1;
    for (int64_t i = 0; i < n; ++i) acc *= v[i];
    return acc;
  };
  d.int_fold = wrap_prod;
  d.doc = "product over one dim (all elements if None)";
  return reduce_op(std::move(d));
}

// log(sum(exp(x - m))) + m with m the group max (0 when infinite), as PyTorch.
OpInfo logsumexp_op() {
  ReduceOpDef d;
  d.name = "logsumexp";
  d.aliases = {"torch.logsumexp", "Tensor.logsumexp", "torch.special.logsumexp"};
  d.params = reduce_params(ParamKind::int_list, true);
  d.out_dtype = [](const ArgReader&, DType in) -> Result<DType> { return floating_or_default(in); };
  d.fold = [](const double* v, int64_t n, DType) {
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < n; ++i) m = std::isnan(v[i]) || v[i] > m ? v[i] : m;
    if (std::isinf(m)) m = 0;
    double acc = 0;
    for (int64_t i = 0; i < n; ++i) acc += std::exp(v[i] - m);
    return std::log(acc) + m;
  };
  d.doc = "log of the sum of exponentials over dim, computed stably";
  return reduce_op(std::move(d));
}

OpInfo truth_op(const std::string& name, bool all) {
  ReduceOpDef d;
  d.name = name;
  d.aliases = {"torch." + name, "Tensor." + name};
  d.params = reduce_params(ParamKind::optional_integer);
  d.out_dtype = [](const ArgReader&, DType in) -> Result<DType> {
    return in == DType::uint8 ? DType::uint8 : DType::boolean;
  };
  d.fold = [all](const double* v, int64_t n, DType) {
    for (int64_t i = 0; i < n; ++i) {
      if ((v[i] != 0) != all) return all ? 0.0 : 1.0;
    }
    return all ? 1.0 : 0.0;
  };
  d.int_fold = [all](const int64_t* v, int64_t n) -> int64_t {
    for (int64_t i = 0; i < n; ++i) {
      if ((v[i] != 0) != all) return all ? 0 : 1;
    }
    return all ? 1 : 0;
  };
  d.doc = all ? "true if every element is nonzero" : "true if any element is nonzero";
  return reduce_op(std::move(d));
}

// nanmean: the mean of the non-NaN values (NaN when there are none), as
// PyTorch's nansum / count.
OpInfo nanmean_op() {
  ReduceOpDef d;
  d.name = "nanmean";
  d.aliases = {"torch.nanmean", "Tensor.nanmean"};
  d.params = reduce_params(ParamKind::optional_int_list, false, true);
  d.out_dtype = [](const ArgReader& a, DType in) -> Result<DType> {
    DType t = in;
    if (!a.is_none(3)) {
      PF_ASSIGN(t, a.dtype(3));
    }
    if (!is_floating(in) || !is_floating(t)) {
      return a.error(0, std::string("nanmean needs a floating input, got ") + dtype_name(t));
    }
    return t;
  };
  d.fold = [](const double* v, int64_t n, DType) {
    double acc = 0;
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (std::isnan(v[i])) continue;
      acc += v[i];
      ++count;
    }
    return acc / static_cast<double>(count);
  };
  d.convert_first = true;
  d.doc = "mean of the non-NaN values over dim (all dims if None)";
  return reduce_op(std::move(d));
}

// count_nonzero(input, dim=None): int64 counts (NaN counts), as PyTorch's
// (input != 0).sum(dim).
OpInfo count_nonzero_op() {
  ReduceOpDef d;
  d.name = "count_nonzero";
  d.aliases = {"torch.count_nonzero", "Tensor.count_nonzero"};
  d.params = reduce_params(ParamKind::optional_int_list);
  d.out_dtype = [](const ArgReader&, DType) -> Result<DType> { return DType::int64; };
  d.fold = [](const double* v, int64_t n, DType) {
    double count = 0;
    for (int64_t i = 0; i < n; ++i) count += v[i] != 0 ? 1 : 0;
    return count;
  };
  d.int_fold = [](const int64_t* v, int64_t n) {
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) count += v[i] != 0 ? 1 : 0;
    return count;
  };
  d.doc = "the number of nonzero elements over dim (all dims if None), int64";
  return reduce_op(std::move(d));
}

}  // namespace

void register_reduction_ops(OpRegistry& r) {
  r.add(nanmean_op());
  r.add(count_nonzero_op());
  r.add(sum_op());
  r.add(nansum_op());
  r.add(mean_op());
  r.add(prod_op());
  r.add(logsumexp_op());
  r.add(truth_op("all", true));
  r.add(truth_op("any", false));
}

}  // namespace pf
