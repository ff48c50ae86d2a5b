// hostile: include_spliced
// what: splits the directive with a backslash-newline so a line-based filter misses it
// how: #inc\ + newline + lude "/etc/passwd" (translation phase 2 joins them)
// defence: the scanner applies line splicing exactly as EDG does before reading directives
// side: compile
// expect: rejected
// message: #include "/etc/passwd" is not allowed
#inc\
lude "/etc/passwd"
extern "C" __global__ void k(float* out) { out[0] = 1.f; }
