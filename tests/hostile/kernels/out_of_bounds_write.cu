// hostile: out_of_bounds_write
// what: writes just past the end of its output (corrupts neighbouring data)
// how: out[n] = 1 with n the element count
// defence: canary guards around every buffer, checked after the run (integrity)
// side: run
// kernel: k
// launch: grid=1,1,1 block=1,1,1 smem=0
// buffers: out=1024
// args: buf:out, int:256
// expect: integrity
// message: buffer 'out': 4 bytes changed after the payload
extern "C" __global__ void k(float* out, int n) { out[n] = 1.f; }
