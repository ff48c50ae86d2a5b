// hostile: has_include_probe
// what: probes the host file system for a file's existence
// how: #if __has_include("/root/.ssh/id_rsa") ... #error ... #endif
// defence: source policy rejects __has_include / __has_include_next
// side: compile
// expect: rejected
// message: __has_include is not allowed
#if __has_include("/root/.ssh/id_rsa")
#error "found a key"
#endif
extern "C" __global__ void k(float* out) { out[0] = 1.f; }
