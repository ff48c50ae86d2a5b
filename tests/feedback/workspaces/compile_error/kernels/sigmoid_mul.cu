// A kernel with two compile errors (an undeclared name, a missing semicolon).
extern "C" __global__ void sigmoid_mul(const float* __restrict__ x, const float* __restrict__ y,
                                       float* __restrict__ out, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = __fmul_rn(1.0f / (1.0f + expf(-xx[i])), y[i])
}
