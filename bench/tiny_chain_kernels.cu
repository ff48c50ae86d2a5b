// Minimal kernels with the baseline's elementwise ABI for tiny_chain_bench.cu:
// pf_div_vec (input 0 over literal 1) and pf_log_vec. Default: one element per
// thread, no branch but the bound. -DPF_TINY_UNROLLED: PyTorch's unrolled
// path (what its vectorised kernel runs for a block with fewer than 512
// elements left): four elements per thread, 128 apart, all loaded before any
// is computed and stored.
#include "../evaluator/gpu/kernels/pf_abi.cuh"

#ifndef PF_TINY_UNROLLED
extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_div_vec(const PfElementwiseParams p) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < p.n) {
    reinterpret_cast<float*>(p.out)[i] =
        reinterpret_cast<const float*>(p.in[0])[i] / static_cast<float>(p.lit[1]);
  }
}

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_log_vec(const PfElementwiseParams p) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < p.n) reinterpret_cast<float*>(p.out)[i] = logf(reinterpret_cast<const float*>(p.in[0])[i]);
}
#else
template <class F>
__device__ __forceinline__ void unrolled(const PfElementwiseParams& p, F f) {
  constexpr int kWork = 4;
  const int first = blockIdx.x * PF_EW_THREADS * kWork + threadIdx.x;
  const int n = static_cast<int>(p.n);
  const float* in = reinterpret_cast<const float*>(p.in[0]);
  float v[kWork];
#pragma unroll
  for (int w = 0; w < kWork; ++w) {
    const int i = first + w * PF_EW_THREADS;
    if (i < n) v[w] = in[i];
  }
#pragma unroll
  for (int w = 0; w < kWork; ++w) {
    const int i = first + w * PF_EW_THREADS;
    if (i < n) reinterpret_cast<float*>(p.out)[i] = f(v[w]);
  }
}

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_div_vec(const PfElementwiseParams p) {
  const float b = static_cast<float>(p.lit[1]);
  unrolled(p, [b](float a) { return a / b; });
}

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_log_vec(const PfElementwiseParams p) {
  unrolled(p, [](float a) { return logf(a); });
}
#endif
