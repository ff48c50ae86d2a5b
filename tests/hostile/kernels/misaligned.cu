// hostile: misaligned
// what: a vector load from an address that is not 16-byte aligned
// how: reinterpret_cast<float4*>((char*)out + 4)
// defence: the sticky CUDA error is reported; the worker is poisoned and replaced
// side: run
// kernel: k
// launch: grid=1,1,1 block=1,1,1 smem=0
// buffers: out=1024
// args: buf:out
// expect: runtime_fail
// message: CUDA_ERROR_MISALIGNED_ADDRESS
extern "C" __global__ void k(float* out) {
  const float4* p = reinterpret_cast<const float4*>(reinterpret_cast<char*>(out) + 4);
  float4 v = *p;
  out[0] = v.x + v.y + v.z + v.w;
}
