#include "evaluator/gpu/synthesis_fill.h"

#include "evaluator/gpu/kernels/pf_abi.cuh"
#include "evaluator/gpu/plan_builder.h"

namespace pf::gpu {

Status fill_synthesized(GpuRuntime& rt, const PfSynthStream& stream, const DeviceTensor& out) {
  if (!out.is_contiguous()) {
    return make_error(ErrorCode::internal, "synthesis into a non-contiguous device tensor");
  }
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  PfSynthParams p{};
  p.out = out.data_ptr();
  p.n = n;
  p.dtype = static_cast<int>(out.dtype());
  p.stream = stream;
  PlanBuilder b(rt);
  const int64_t pairs = (n + 1) / 2;
  PF_TRY(b.add_kernel("synth.cu", DType::float32, "pf_synth_fill",
                      linear_launch(pairs, PF_EW_THREADS, PF_EW_THREADS), p));
  return b.finish().run(rt.stream());
}

}  // namespace pf::gpu
