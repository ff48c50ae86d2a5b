// hostile: include_after_comment
// what: starts the directive after a block comment that spans a line break
// how: /* ... newline ... */ #include "/etc/passwd" (EDG treats it as a directive)
// defence: the scanner treats a newline inside a comment as a line start
// side: compile
// expect: rejected
// message: #include "/etc/passwd" is not allowed
extern "C" __global__ void k(float* out) { out[0] = 1.f; }
/*
*/ #include "/etc/passwd"
