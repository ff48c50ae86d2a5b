// hostile: huge_local_array
// what: 16 MiB of local memory (stack) per thread
// how: float local[1 << 22] indexed with a runtime value
// defence: the driver refuses the launch (cannot reserve local memory for every resident thread)
// side: run
// kernel: k
// launch: grid=1024,1,1 block=1024,1,1 smem=0
// buffers: out=1024
// args: buf:out, int:1000
// expect: launch_error|runtime_fail
extern "C" __global__ void k(float* out, int n) {
  float local[1 << 22];
  for (int i = 0; i < n; ++i) local[(i * 7919) % (1 << 22)] = i;
  out[0] = local[n];
}
