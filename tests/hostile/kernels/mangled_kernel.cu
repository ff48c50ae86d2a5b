// hostile: mangled_kernel
// what: a kernel without extern "C" (C++-mangled name the harness cannot launch by name)
// how: __global__ void scale(float*, int) outside extern "C"
// defence: the compiler lists mangled entry points as a compile error naming the fix
// side: compile
// expect: compile_error
// message: kernel 'scale(float*, int)' has the C++-mangled name _Z5scalePfi; declare kernels extern "C" __global__
__global__ void scale(float* out, int n) { out[0] = n; }
