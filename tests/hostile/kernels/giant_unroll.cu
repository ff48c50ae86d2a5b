// hostile: giant_unroll
// what: compile bomb through huge #pragma unroll loops
// how: a fully unrolled 65536 x 64 loop nest around a transcendental body
// defence: NVVM caps full unrolling; whatever it does, the compile deadline bounds it
// side: compile
// deadline_ms: 8000
// expect: ok|compile_timeout
extern "C" __global__ void k(float* o, int n) {
  float acc = 0.f;
#pragma unroll
  for (int i = 0; i < 65536; ++i)
#pragma unroll
    for (int j = 0; j < 64; ++j) acc = sinf(acc * o[(i * 64 + j) % n]) + 1.0f;
  o[0] = acc;
}
