// hostile: pragma_include_alias
// what: maps an allowed header name to a host file
// how: _Pragma("include_alias(\"cuda_fp16.h\", \"/etc/passwd\")") then #include <cuda_fp16.h>
// defence: source policy allowlists pragmas (#pragma and _Pragma alike)
// side: compile
// expect: rejected
// message: _Pragma include_alias is not allowed
_Pragma("include_alias(\"cuda_fp16.h\", \"/etc/passwd\")")
#include <cuda_fp16.h>
extern "C" __global__ void k(float* out) { out[0] = 1.f; }
