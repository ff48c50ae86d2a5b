// Correct except on the "wide" variant, where it never finishes: the worker
// misses its deadline and is killed.
extern "C" __global__ void sigmoid_mul(const float* __restrict__ x, const float* __restrict__ y,
                                       float* __restrict__ out, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (n == 1024 * 1024) {
    // Spins on global memory through a volatile pointer: every load stays
    // (a volatile local variable did not, measured on the H200) and nothing
    // ever changes the value.
    volatile float* o = out;
    o[i] = 0.0f;
    while (o[i] == 0.0f) {
    }
  }
  out[i] = __fmul_rn(1.0f / (1.0f + expf(-x[i])), y[i]);
}
