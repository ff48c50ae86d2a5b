// Honest control for the degenerate-variant task: relu(x) * y, one thread per element.
extern "C" __global__ void relu_mul(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ out, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = __fmul_rn(fmaxf(x[i], 0.0f), y[i]);
}
