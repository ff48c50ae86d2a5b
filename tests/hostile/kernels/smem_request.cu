// hostile: smem_request
// what: asks for 1 GiB of dynamic shared memory at launch
// how: launch smem = 1073741824
// defence: launch validation against the device's opt-in limit, before anything is submitted
// side: run
// kernel: k
// launch: grid=1,1,1 block=32,1,1 smem=1073741824
// buffers: out=1024
// args: buf:out
// expect: launch_rejected
// message: exceeds the device limit
extern "C" __global__ void k(float* out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = 1.f;
  out[threadIdx.x] = dyn[threadIdx.x];
}
