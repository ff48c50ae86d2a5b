// hostile: infinite_loop
// what: a kernel that never finishes (hangs the worker, blocks the GPU)
// how: spins on a value nobody changes
// defence: the request deadline: the pool kills the worker's process group and starts a new one
// side: run
// kernel: k
// launch: grid=1,1,1 block=32,1,1 smem=0
// buffers: out=1024
// args: buf:out
// deadline_ms: 5000
// expect: timeout
extern "C" __global__ void k(volatile float* out) {
  while (out[0] == 0.f) {
  }
}
