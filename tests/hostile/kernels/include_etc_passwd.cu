// hostile: include_etc_passwd
// what: reads a host file through the preprocessor
// how: #include "/etc/passwd" (an absolute path)
// defence: source policy rejects every non-bundled #include before NVRTC runs; no include path is passed; Landlock denies the open
// side: compile
// expect: rejected
// message: kernels/include_etc_passwd.cu:8: #include "/etc/passwd" is not allowed
#include "/etc/passwd"
extern "C" __global__ void k(float* out) { out[0] = 1.f; }
