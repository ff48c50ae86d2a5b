// hostile: include_macro
// what: hides the included path behind a macro so a text filter misses it
// how: #define P "/etc/passwd" then #include P
// defence: source policy requires a literal header name after #include
// side: compile
// expect: rejected
// message: #include must name a header literally
#define P "/etc/passwd"
#include P
extern "C" __global__ void k(float* out) { out[0] = 1.f; }
