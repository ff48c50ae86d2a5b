// hostile: device_assert
// what: a failing device assert() (NDEBUG is not defined, as in PyTorch's kernels)
// how: assert(out[0] == 123.f) on a zeroed buffer
// defence: CUDA_ERROR_ASSERT is sticky: the worker is poisoned and replaced
// side: run
// kernel: k
// launch: grid=1,1,1 block=1,1,1 smem=0
// buffers: out=1024
// args: buf:out
// expect: runtime_fail
// message: CUDA_ERROR_ASSERT
extern "C" __global__ void k(float* out) { assert(out[0] == 123.f); }
