// hostile: has_include_pasted
// what: assembles __has_include by token pasting, which no token filter can see
// how: #define CAT(a, b) a##b and #if CAT(__has_, include)("/etc/passwd") -> #error on success
// defence: Landlock in the worker: the probe's open() is denied, so the file reads as absent and the #error never fires
// side: compile
// requires: landlock
// expect: ok
#define CAT(a, b) a##b
#if CAT(__has_, include)("/etc/passwd")
#error "the sandboxed compiler could see /etc/passwd"
#endif
extern "C" __global__ void k(float* out) { out[0] = 1.f; }
