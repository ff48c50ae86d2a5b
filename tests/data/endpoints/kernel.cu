#include <cuda_fp16.h>
// "add" then relu; a tab	here and a backslash \ in a comment, café
extern "C" __global__ void add_relu(const float* a, const float* b, float* out, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) { float v = a[i] + b[i]; out[i] = v > 0.f ? v : 0.f; }
}
