// hostile: trap
// what: aborts the kernel with __trap()
// how: __trap() in every thread
// defence: the sticky CUDA error is reported; the worker is poisoned and replaced
// side: run
// kernel: k
// launch: grid=1,1,1 block=32,1,1 smem=0
// buffers: out=1024
// args: buf:out
// expect: runtime_fail
// message: CUDA_ERROR_
extern "C" __global__ void k(float* out) {
  out[threadIdx.x] = 1.f;
  __trap();
}
