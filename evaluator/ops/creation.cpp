// Filled tensors: zeros, ones, empty, full and their _like / new_ forms.
// empty is defined as zeros (the reference must be deterministic; a graph
// whose output depends on uninitialised memory is wrong anyway). Default
// dtypes follow PyTorch: float32, the fill value's kind for full (bool, int64,
// float32), the input's for _like and new_.
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/op_util.h"
#include "evaluator/ops/type_promotion.h"

namespace pf {
namespace {

// Which leading parameters an op has before the factory keywords.
struct FillForm {
  bool input = false;  // zeros_like(input), x.new_zeros(size)
  bool size = false;
  bool size_varargs = false;
  bool fill = false;  // full(size, fill_value)
};

struct Layout {
  size_t input = 0, size = 0, fill = 0, dtype = 0;
};

Layout layout_of(const FillForm& f) {
  Layout l;
  size_t i = 0;
  if (f.input) l.input = i++;
  if (f.size) l.size = i++;
  if (f.fill) l.fill = i++;
  l.dtype = i;
  return l;
}

Result<Shape> read_size(const ArgReader& a, size_t i) {
  PF_ASSIGN(std::vector<int64_t> size, a.ints(i));
  for (int64_t d : size) {
    if (d < 0) return a.error(i, "negative dimension " + std::to_string(d));
  }
  return size;
}

DType fill_kind_dtype(const Arg& fill) {
  if (fill.kind == Arg::Kind::boolean) return DType::boolean;
  if (fill.kind == Arg::Kind::integer) return DType::int64;
  return kDefaultFloat;
}

OpInfo fill_op(const std::string& name, std::vector<std::string> aliases, FillForm form,
               double constant) {
  Layout l = layout_of(form);
  OpInfo op;
  op.name = name;
  op.aliases = std::move(aliases);
  if (form.input) op.params.push_back(tensor_param("input"));
  if (form.size) {
    ParamDef size = param("size", ParamKind::int_list);
    size.varargs = form.size_varargs;
    op.params.push_back(size);
  }
  if (form.fill) op.params.push_back(param("fill_value", ParamKind::scalar));
  for (auto& p : factory_kwargs()) op.params.push_back(p);
  if (form.input) op.params.push_back(ignored_param("memory_format"));
  op.infer = [form, l](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    TensorType t;
    t.dtype = form.input ? a.tensor(l.input).dtype
                         : (form.fill ? fill_kind_dtype(a.arg(l.fill)) : kDefaultFloat);
    if (form.size) {
      PF_ASSIGN(t.shape, read_size(a, l.size));
    } else {
      t.shape = a.tensor(l.input).shape;
    }
    if (!a.is_none(l.dtype)) {
      PF_ASSIGN(t.dtype, a.dtype(l.dtype));
    }
    if (form.fill) {
      PF_ASSIGN(double v, a.real(l.fill));
      PF_TRY(check_value_fits(a, l.fill, v, t.dtype));
    }
    return std::vector<TensorType>{t};
  };
  op.cpu = [form, l, constant](const BoundArgs<Tensor>& a,
                               const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    Tensor y = Tensor::zeros(out[0].dtype, out[0].shape);
    const Arg& fill = form.fill ? a.arg(l.fill) : Arg::make_real(constant);
    int64_t n = y.numel();
    if (fill.kind == Arg::Kind::integer && !is_floating(out[0].dtype)) {
      for (int64_t i = 0; i < n; ++i) y.set_int(i, fill.i);
    } else if (form.fill || constant != 0) {
      PF_ASSIGN(double v, form.fill ? a.real(l.fill) : Result<double>(constant));
      for (int64_t i = 0; i < n; ++i) y.set(i, v);
    }
    return std::vector<Tensor>{y};
  };
  op.doc = form.fill ? "a tensor filled with fill_value"
                     : std::string("a tensor of ") + (constant != 0 ? "ones" : "zeros");
  return op;
}

}  // namespace

void register_creation_ops(OpRegistry& r) {
  FillForm sized{false, true, true, false};
  r.add(fill_op("zeros", {"torch.zeros"}, sized, 0));
  r.add(fill_op("ones", {"torch.ones"}, sized, 1));
  r.add(fill_op("empty", {"torch.empty"}, sized, 0));
  r.add(fill_op("full", {"torch.full"}, {false, true, false, true}, 0));

  FillForm like{true, false, false, false};
  // x.zero_() / x.fill_(v): the _like op, rebinding x (graph_builder.h).
  r.add(fill_op("zeros_like", {"torch.zeros_like", "Tensor.zero_"}, like, 0));
  r.add(fill_op("ones_like", {"torch.ones_like"}, like, 1));
  r.add(fill_op("empty_like", {"torch.empty_like"}, like, 0));
  r.add(fill_op("full_like", {"torch.full_like", "Tensor.fill_"}, {true, false, false, true}, 0));

  FillForm fresh{true, true, true, false};
  r.add(fill_op("new_zeros", {"Tensor.new_zeros"}, fresh, 0));
  r.add(fill_op("new_ones", {"Tensor.new_ones"}, fresh, 1));
  r.add(fill_op("new_empty", {"Tensor.new_empty"}, fresh, 0));
  r.add(fill_op("new_full", {"Tensor.new_full"}, {true, true, false, true}, 0));
}

}  // namespace pf
