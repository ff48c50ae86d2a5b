// hostile: inline_explosion
// what: compile bomb: 2^18 forced-inline copies of a function body (hours of optimiser time)
// how: f<N> calls f<N-1> twice with different arguments, all __forceinline__
// defence: the compile deadline: NVRTC's flow callback cancels at a phase boundary, and the pool kills the worker when the deadline passes first
// side: compile
// deadline_ms: 4000
// expect: compile_timeout
template <int N> __device__ __forceinline__ float f(const float* o, float x) {
  return f<N - 1>(o, sinf(x) * o[N]) * o[N + 1] + f<N - 1>(o, cosf(x) + o[N + 2]);
}
template <> __device__ __forceinline__ float f<0>(const float* o, float x) { return x * o[0]; }
extern "C" __global__ void k(float* out) { out[0] = f<18>(out, out[1]); }
