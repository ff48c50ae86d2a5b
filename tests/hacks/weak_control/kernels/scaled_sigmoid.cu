// Honest control for the weak task.
extern "C" __global__ void scaled_sigmoid(const float* __restrict__ x, float* __restrict__ out, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = __fmul_rn(1.0f / (1.0f + expf(-x[i])), 1e-12f);
}
