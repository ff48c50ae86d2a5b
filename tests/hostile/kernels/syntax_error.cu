// hostile: syntax_error
// what: ordinary broken code; the log must be usable as feedback
// how: an undefined identifier and a missing semicolon
// defence: compile log cleaning: program-relative file:line, errors first, no NVRTC summary lines
// side: compile
// expect: compile_error
// message: kernels/syntax_error.cu(11): error: identifier "undefined_value" is undefined
extern "C" __global__ void k(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = undefined_value
}
