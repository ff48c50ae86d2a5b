// Creation ops (kernels in copy.cu): zeros/ones/full and their _like/new_
// forms launch a fill kernel as PyTorch's fill_ does; empty launches nothing
// (its buffer is zeroed once while the plan is built, since the reference
// defines empty as zeros); arange, linspace and eye have their own kernels;
// torch.tensor's literal is uploaded once and copied into the output (the
// host-to-device copy PyTorch performs); triu/tril copy with a mask.
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/offset_calc.h"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/op_registry.h"

namespace pf::gpu {
namespace {

constexpr const char* kCopy = "copy.cu";

Status add_fill(PlanBuilder& b, const DeviceTensor& out, double v, int64_t vi) {
  PfFillParams p{};
  p.out = out.data_ptr();
  p.n = out.numel();
  p.value = v;
  p.value_i = vi;
  if (p.n == 0) return ok_status();
  return b.add_kernel(kCopy, out.dtype(), "pf_fill",
                      linear_launch(p.n, PF_EW_THREADS * vector_width(out.dtype()), PF_EW_THREADS),
                      p);
}

// fill_op's parameter layout: [input] [size] [fill_value] dtype ...
struct FillForm {
  bool input = false, size = false, fill = false;
  double constant = 0;
  bool empty = false;
  size_t fill_index() const { return (input ? 1 : 0) + (size ? 1 : 0); }
};

GpuOpFn fill_fn(FillForm form) {
  return [form](const GpuArgs& a, const std::vector<TensorType>& out,
                PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
    if (form.empty) {
      PF_TRY(b.fill_now(*y.storage(), 0));
      return std::vector<DeviceTensor>{y};
    }
    double v = form.constant;
    int64_t vi = static_cast<int64_t>(form.constant);
    if (form.fill) {
      const Arg& f = a.arg(form.fill_index());
      PF_ASSIGN(v, a.real(form.fill_index()));
      vi = f.kind == Arg::Kind::integer   ? f.i
           : f.kind == Arg::Kind::boolean ? (f.b ? 1 : 0)
                                          : static_cast<int64_t>(v);
    }
    PF_TRY(add_fill(b, y, v, vi));
    return std::vector<DeviceTensor>{y};
  };
}

Result<std::vector<DeviceTensor>> run_arange(const GpuArgs& a, const std::vector<TensorType>& out,
                                             PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  PfFillParams p{};
  p.out = y.data_ptr();
  p.n = y.numel();
  PF_ASSIGN(p.value, a.real(0));
  PF_ASSIGN(p.step, a.real(2));
  bool exact = !is_floating(y.dtype());
  for (size_t i : {0, 1, 2}) exact = exact && a.arg(i).kind == Arg::Kind::integer;
  p.rows = exact ? 1 : 0;
  p.value_i = exact ? a.arg(0).i : 0;
  p.step_i = exact ? a.arg(2).i : 0;
  if (p.n > 0) {
    PF_TRY(b.add_kernel(kCopy, y.dtype(), "pf_arange",
                        linear_launch(p.n, PF_EW_THREADS, PF_EW_THREADS), p));
  }
  return std::vector<DeviceTensor>{y};
}

Result<std::vector<DeviceTensor>> run_linspace(const GpuArgs& a, const std::vector<TensorType>& out,
                                               PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  PfFillParams p{};
  p.out = y.data_ptr();
  p.n = y.numel();
  PF_ASSIGN(p.value, a.real(0));
  PF_ASSIGN(p.end, a.real(1));
  p.half_n = p.n / 2;
  if (p.n > 1) {
    if (is_floating(y.dtype()) && y.dtype() != DType::float64) {
      auto start = static_cast<float>(p.value), end = static_cast<float>(p.end);
      p.step = static_cast<double>((end - start) / static_cast<float>(p.n - 1));
    } else {
      p.step = (p.end - p.value) / static_cast<double>(p.n - 1);
    }
  }
  if (p.n > 0) {
    PF_TRY(b.add_kernel(kCopy, y.dtype(), "pf_linspace",
                        linear_launch(p.n, PF_EW_THREADS, PF_EW_THREADS), p));
  }
  return std::vector<DeviceTensor>{y};
}

Result<std::vector<DeviceTensor>> run_eye(const GpuArgs&, const std::vector<TensorType>& out,
                                          PlanBuilder& b) {
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  PfFillParams p{};
  p.out = y.data_ptr();
  p.n = y.numel();
  p.rows = out[0].shape[0];
  p.cols = out[0].shape[1];
  if (p.n > 0) {
    PF_TRY(b.add_kernel(kCopy, y.dtype(), "pf_eye",
                        linear_launch(p.n, PF_EW_THREADS, PF_EW_THREADS), p));
  }
  return std::vector<DeviceTensor>{y};
}

// torch.tensor: the CPU op builds the literal; it is uploaded once (a
// constant owned by the plan) and copied into the output on every run.
Result<std::vector<DeviceTensor>> run_tensor(const GpuArgs& a, const std::vector<TensorType>& out,
                                             PlanBuilder& b) {
  // torch.tensor or x.new_tensor: the literal does not depend on x's values.
  const std::string& name = a.node().op;
  const OpInfo* op = OpRegistry::builtin().find(name);
  std::vector<std::vector<Tensor>> no_env;
  BoundArgs<Tensor> hargs(a.node(), OpRegistry::builtin().param_names(name), no_env);
  PF_ASSIGN(std::vector<Tensor> host, op->cpu(hargs, out));
  PF_ASSIGN(DeviceTensor constant, b.allocate(out[0], "torch.tensor literal"));
  PF_TRY(b.runtime().upload_into(host[0], constant));
  PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
  PF_TRY(copy_into(b, constant, y));
  return std::vector<DeviceTensor>{y};
}

GpuOpFn triangle_fn(bool upper) {
  return [upper](const GpuArgs& a, const std::vector<TensorType>& out,
                 PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    const DeviceTensor& x = a.tensor(0);
    PF_ASSIGN(int64_t diagonal, a.integer(1));
    PF_ASSIGN(DeviceTensor y, b.allocate(out[0]));
    b.use(x);
    PfFillParams p{};
    p.out = y.data_ptr();
    p.in = x.data_ptr();
    p.n = y.numel();
    const Shape& s = out[0].shape;
    p.rows = s[s.size() - 2];
    p.cols = s[s.size() - 1];
    p.diagonal = diagonal;
    p.value_i = upper ? 1 : 0;
    if (p.n == 0) return std::vector<DeviceTensor>{y};
    Layout layout{s, {y.strides(), x.strides()}};
    PF_ASSIGN(p.oc, make_offset_calc(layout, {y.element_size(), x.element_size()}));
    PF_TRY(b.add_kernel(
        kCopy, y.dtype(), "pf_triangle",
        linear_launch(p.n, int64_t{PF_EW_THREADS} * PF_EW_STRIDED_WORK, PF_EW_THREADS), p));
    return std::vector<DeviceTensor>{y};
  };
}

}  // namespace

void register_gpu_creation_ops(GpuOpRegistry& r) {
  FillForm sized{false, true, false, 0, false};
  FillForm like{true, false, false, 0, false};
  FillForm fresh{true, true, false, 0, false};
  auto with = [](FillForm f, double c, bool empty) {
    f.constant = c;
    f.empty = empty;
    return f;
  };
  r.add(GpuOpInfo{"zeros", fill_fn(with(sized, 0, false)), all_dtypes()});
  r.add(GpuOpInfo{"ones", fill_fn(with(sized, 1, false)), all_dtypes()});
  r.add(GpuOpInfo{"empty", fill_fn(with(sized, 0, true)), all_dtypes()});
  r.add(GpuOpInfo{"full", fill_fn(FillForm{false, true, true, 0, false}), all_dtypes()});
  r.add(GpuOpInfo{"zeros_like", fill_fn(with(like, 0, false)), all_dtypes()});
  r.add(GpuOpInfo{"ones_like", fill_fn(with(like, 1, false)), all_dtypes()});
  r.add(GpuOpInfo{"empty_like", fill_fn(with(like, 0, true)), all_dtypes()});
  r.add(GpuOpInfo{"full_like", fill_fn(FillForm{true, false, true, 0, false}), all_dtypes()});
  r.add(GpuOpInfo{"new_zeros", fill_fn(with(fresh, 0, false)), all_dtypes()});
  r.add(GpuOpInfo{"new_ones", fill_fn(with(fresh, 1, false)), all_dtypes()});
  r.add(GpuOpInfo{"new_empty", fill_fn(with(fresh, 0, true)), all_dtypes()});
  r.add(GpuOpInfo{"new_full", fill_fn(FillForm{true, true, true, 0, false}), all_dtypes()});
  r.add(GpuOpInfo{"arange", run_arange, all_dtypes()});
  r.add(GpuOpInfo{"linspace", run_linspace, all_dtypes()});
  r.add(GpuOpInfo{"eye", run_eye, all_dtypes()});
  r.add(GpuOpInfo{"tensor", run_tensor, all_dtypes()});
  r.add(GpuOpInfo{"new_tensor", run_tensor, all_dtypes()});
  r.add(GpuOpInfo{"triu", triangle_fn(true), all_dtypes()});
  r.add(GpuOpInfo{"tril", triangle_fn(false), all_dtypes()});
}

}  // namespace pf::gpu
