// Correct except on the "wide" variant, where it writes through a wild
// pointer: CUDA_ERROR_ILLEGAL_ADDRESS, a sticky error that ends the worker.
extern "C" __global__ void sigmoid_mul(const float* __restrict__ x, const float* __restrict__ y,
                                       float* __restrict__ out, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (n == 1024 * 1024 && i == 0) *(volatile float*)(out + (1ll << 40)) = 1.0f;
  out[i] = __fmul_rn(1.0f / (1.0f + expf(-x[i])), y[i]);
}
