// hostile: oversized_block
// what: launches more threads per block than any GPU allows
// how: block = 4096 x 1 x 1
// defence: launch validation (device and per-kernel limits) before submission
// side: run
// kernel: k
// launch: grid=1,1,1 block=4096,1,1 smem=0
// buffers: out=1024
// args: buf:out
// expect: launch_rejected
// message: block.x = 4096 exceeds the device limit
extern "C" __global__ void k(float* out) { out[0] = 1.f; }
