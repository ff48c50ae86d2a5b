// hostile: huge_static_shared
// what: requests 1 MiB of static shared memory per block
// how: __shared__ float s[256 * 1024]
// defence: ptxas refuses it; the cleaned log says so
// side: compile
// expect: compile_error
// message: uses too much shared data
extern "C" __global__ void k(float* out) {
  __shared__ float s[256 * 1024];
  s[threadIdx.x] = 1.f;
  __syncthreads();
  out[0] = s[threadIdx.x + 1];
}
