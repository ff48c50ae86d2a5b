// hostile: huge_device_array
// what: a 512 GiB static __device__ array (exhausts device memory at module load)
// how: __device__ float huge[1ull << 37]
// defence: loading the module (or its first use, with lazy loading) fails with a clear, non-sticky error; the worker stays usable
// side: run
// kernel: k
// launch: grid=1,1,1 block=1,1,1 smem=0
// buffers: out=1024
// args: buf:out
// expect: launch_error
__device__ float huge[1ull << 37];
extern "C" __global__ void k(float* out) {
  huge[threadIdx.x + 7] = 1.f;
  out[0] = huge[threadIdx.x];
}
