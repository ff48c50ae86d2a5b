// pf-dtypes: float32
// pf-requires: synth_stream.h
// Input synthesis on the device (evaluator/gpu/synthesis_fill.h): one thread
// per Box-Muller pair of elements, the per-element math that of the CPU twin
// (evaluator/core/synth_stream.h), so the values are bit-identical. One
// program (built for float32 only) serves every dtype: the store converts
// by the parameter's dtype tag.

extern "C" __global__ void __launch_bounds__(PF_EW_THREADS) pf_synth_fill(const PfSynthParams p) {
  const long long pair = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (2 * pair >= p.n) return;
  pf_synth_fill_pair(p.stream, p.dtype, reinterpret_cast<char*>(p.out), p.n, pair);
}
