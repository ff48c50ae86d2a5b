// hostile: include_parent_path
// what: climbs out of the workspace with a relative include
// how: #include "../../../../../../etc/hostname" and an angle-bracket system header
// defence: source policy (only <cuda_fp16.h> / <cuda_bf16.h>); --no-source-include; Landlock
// side: compile
// expect: rejected
// message: #include "../../../../../../etc/hostname" is not allowed
#include <cuda_fp16.h>
#include "../../../../../../etc/hostname"
#include <stdio.h>
extern "C" __global__ void k(float* out) { out[0] = 1.f; }
