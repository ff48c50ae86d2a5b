// hostile: line_directive
// what: makes diagnostics name another file and line (log spoofing)
// how: #line 1 "/etc/passwd"
// defence: source policy rejects #line and GNU line markers
// side: compile
// expect: rejected
// message: #line is not allowed
#line 1 "/etc/passwd"
extern "C" __global__ void k(float* out) { out[0] = undefined_here; }
