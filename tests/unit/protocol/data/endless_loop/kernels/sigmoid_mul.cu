// Correct except on the "wide" variant, where it never finishes: the worker
// misses its deadline and is killed.
extern "C" __global__ void sigmoid_mul(const float* __restrict__ x, const float* __restrict__ y,
                                       float* __restrict__ out, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (n == 1024 * 1024) {
    volatile int spin = 1;
    while (spin) {
    }
  }
  out[i] = __fmul_rn(1.0f / (1.0f + expf(-x[i])), y[i]);
}
