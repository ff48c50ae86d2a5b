// hostile: printf_flood
// what: floods the worker's output with device printf
// how: every thread of 1024 blocks prints 10 lines (2.6 M lines, ~40 MB: 600x the FIFO)
// defence: the printf FIFO is capped (64 KiB per synchronisation); excess output is dropped by the driver
// side: run
// kernel: k
// launch: grid=1024,1,1 block=256,1,1 smem=0
// buffers: out=1024
// args: buf:out, int:10
// deadline_ms: 60000
// expect: ok
extern "C" __global__ void k(float* out, int lines) {
  for (int i = 0; i < lines; ++i) printf("flood %d %d %d\n", blockIdx.x, threadIdx.x, i);
  if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = 1.f;
}
