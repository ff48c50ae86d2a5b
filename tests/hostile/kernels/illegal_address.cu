// hostile: illegal_address
// what: writes through a wild pointer
// how: *(float*)0x10 = 1
// defence: the sticky CUDA error is reported, the worker declares itself poisoned and is replaced
// side: run
// kernel: k
// launch: grid=1,1,1 block=1,1,1 smem=0
// buffers: out=1024
// args: buf:out
// expect: runtime_fail
// message: CUDA_ERROR_ILLEGAL_ADDRESS
extern "C" __global__ void k(float* out) {
  float* wild = reinterpret_cast<float*>(0x10);
  *wild = out[0];
}
