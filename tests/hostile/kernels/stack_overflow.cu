// hostile: stack_overflow
// what: unbounded device recursion
// how: f(n) recurses n = 1e8 times with a 256-byte frame
// defence: the sticky CUDA error is reported; the worker is poisoned and replaced
// side: run
// kernel: k
// launch: grid=1,1,1 block=1,1,1 smem=0
// buffers: out=1024
// args: buf:out, int:100000000
// expect: runtime_fail
// message: CUDA_ERROR_
__device__ __noinline__ int f(volatile float* out, int n) {
  volatile char frame[256];
  frame[n & 255] = static_cast<char>(n);
  return n == 0 ? 0 : f(out, n - 1) + frame[(n * 7) & 255];
}
extern "C" __global__ void k(float* out, int n) { out[0] = f(out, n); }
