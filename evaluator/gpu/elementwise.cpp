#include "evaluator/gpu/elementwise.h"

#include "evaluator/gpu/offset_calc.h"

namespace pf::gpu {

int64_t vector_width(DType compute) {
  size_t s = dtype_size(compute);
  return s >= 2 ? static_cast<int64_t>(16 / s) : 8;
}

bool vectorizable(const DeviceTensor& t, const Shape& shape, int64_t vec) {
  return t.shape() == shape && t.is_contiguous() &&
         t.data_ptr() % (static_cast<CUdeviceptr>(vec) * t.element_size()) == 0;
}

Result<DeviceTensor> launch_elementwise(PlanBuilder& b, const EwLaunch& launch) {
  PF_ASSIGN(DeviceTensor out, b.allocate(TensorType{launch.out, launch.shape}));
  PF_TRY(launch_elementwise_into(b, launch, out));
  return out;
}

Status launch_elementwise_into(PlanBuilder& b, const EwLaunch& launch, const DeviceTensor& out) {
  const size_t nin = launch.inputs.size();
  if (nin < 1 || nin > 3 || out.shape() != launch.shape || out.dtype() != launch.out) {
    return make_error(ErrorCode::internal,
                      "elementwise launch '" + launch.kernel + "' is malformed");
  }
  b.use(out);
  const int64_t n = shape_numel(launch.shape);
  if (n == 0) return ok_status();
  PfElementwiseParams p{};
  p.out = out.data_ptr();
  p.n = n;
  const int64_t vec = vector_width(launch.compute);
  bool vec_ok = vectorizable(out, launch.shape, vec);
  for (size_t k = 0; k < nin; ++k) {
    const EwOperand& op = launch.inputs[k];
    if (op.tensor == nullptr) {
      p.in_kind[k] = PF_OPERAND_LITERAL;
      p.lit[k] = op.literal;
      p.lit_i[k] = op.literal_int;
      continue;
    }
    const DeviceTensor& t = *op.tensor;
    b.use(t);
    p.in[k] = t.data_ptr();
    p.in_dtype[k] = static_cast<int>(t.dtype());
    DType expected = ((launch.bool_args >> k) & 1) ? DType::boolean : launch.compute;
    vec_ok = vec_ok && t.dtype() == expected && vectorizable(t, launch.shape, vec);
  }
  for (size_t i = 0; i < 4; ++i) {
    p.s[i] = launch.s[i];
    p.si[i] = launch.si[i];
  }
  // A tensor of at most one block of threads whose size is not a multiple of
  // the vector goes to the strided kernel, one element per thread: the
  // vector kernel's tail thread cost a three-op chain of 121 floats about
  // 0.9 us on the H200, the strided kernel loses 0.2 us where there is no
  // tail and more above one block (bench/results/device-20261203.md).
  const bool tiny_with_tail = n <= PF_EW_THREADS && n % vec != 0;
  if (vec_ok && !tiny_with_tail) {
    return b.add_kernel(launch.file, launch.compute, "pf_" + launch.kernel + "_vec",
                        linear_launch(n, PF_EW_THREADS * vec, PF_EW_THREADS), p);
  }
  Layout layout;
  layout.shape = launch.shape;
  layout.strides.push_back(broadcast_strides(out.shape(), out.strides(), launch.shape));
  std::vector<size_t> sizes = {out.element_size()};
  for (size_t k = 0; k < nin; ++k) {
    const DeviceTensor* t = launch.inputs[k].tensor;
    layout.strides.push_back(t ? broadcast_strides(t->shape(), t->strides(), launch.shape)
                               : Strides(launch.shape.size(), 0));
    sizes.push_back(t ? t->element_size() : 1);
  }
  PF_ASSIGN(p.oc, make_offset_calc(layout, sizes));
  return b.add_kernel(launch.file, launch.compute, "pf_" + launch.kernel + "_strided",
                      linear_launch(n, int64_t{PF_EW_THREADS} * PF_EW_STRIDED_WORK, PF_EW_THREADS),
                      p);
}

}  // namespace pf::gpu
