// hostile: printf_flood
// what: floods the worker's output with device printf
// how: every thread of 1024 blocks prints 10 lines (2.6 M lines, ~40 MB: 600x the FIFO)
// defence: the deadline (a flood far beyond the 64 KiB printf FIFO did not finish within 60 s on driver 580, H200: 2.6 M and 262 M lines alike), then the worker is killed and replaced; its log cannot outgrow RLIMIT_FSIZE
// side: run
// kernel: k
// launch: grid=1024,1,1 block=256,1,1 smem=0
// buffers: out=1024
// args: buf:out, int:10
// deadline_ms: 10000
// expect: timeout
extern "C" __global__ void k(float* out, int lines) {
  for (int i = 0; i < lines; ++i) printf("flood %d %d %d\n", blockIdx.x, threadIdx.x, i);
  if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = 1.f;
}
