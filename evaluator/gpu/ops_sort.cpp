// topk, sort and argsort (kernels/sort.cu): the input made contiguous, then
// one kernel writing the values (not for argsort) and int64 indices in the
// output layout. The op checks (ops/sorting.cpp) already ran at type
// inference.
#include "evaluator/gpu/copy.h"
#include "evaluator/gpu/gpu_op_families.h"
#include "evaluator/gpu/gpu_op_registry.h"
#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/kernels/pf_ops_abi.cuh"
#include "evaluator/gpu/op_support.h"
#include "evaluator/ops/layout_util.h"

namespace pf::gpu {
namespace {

// dim_param / direction_param: where dim and largest/descending are.
GpuOpFn order_fn(size_t dim_param, size_t direction_param, bool values) {
  return [=](const GpuArgs& a, const std::vector<TensorType>& out,
             PlanBuilder& b) -> Result<std::vector<DeviceTensor>> {
    PF_ASSIGN(DeviceTensor x, contiguous(b, a.tensor(0)));
    b.use(x);
    PF_ASSIGN(int64_t dim, layout::dim_arg(a, dim_param, std::max<int64_t>(x.dim(), 1)));
    PF_ASSIGN(bool descending, a.boolean(direction_param));
    std::vector<DeviceTensor> outs;
    for (const auto& t : out) {
      PF_ASSIGN(DeviceTensor o, b.allocate(t));
      outs.push_back(o);
    }
    const DeviceTensor& idx = outs.back();
    PfSortParams p{};
    p.in = x.data_ptr();
    p.values = values ? outs[0].data_ptr() : 0;
    p.indices = idx.data_ptr();
    p.outer = 1;
    p.inner = 1;
    for (int64_t d = 0; d < x.dim(); ++d) {
      if (d < dim) p.outer *= x.shape()[d];
      if (d > dim) p.inner *= x.shape()[d];
    }
    p.len = x.dim() == 0 ? 1 : x.shape()[dim];
    p.k = idx.dim() == 0 ? 1 : idx.shape()[dim];
    p.descending = descending ? 1 : 0;
    if (idx.numel() == 0) return outs;
    PF_TRY(b.add_kernel("sort.cu", x.dtype(), "pf_sort_select",
                        linear_launch(p.outer * p.inner, 128, 128), p));
    return outs;
  };
}

}  // namespace

void register_gpu_sort_ops(GpuOpRegistry& r) {
  r.add(GpuOpInfo{"topk", order_fn(2, 3, true), all_dtypes()});
  r.add(GpuOpInfo{"sort", order_fn(1, 2, true), all_dtypes()});
  r.add(GpuOpInfo{"argsort", order_fn(1, 2, false), all_dtypes()});
}

}  // namespace pf::gpu
