// hostile: long_source
// what: a very long source file (slow scanning, huge logs, memory)
// how: the runner repeats the body below until the file is ~512 KiB
// defence: source policy's per-file size limit (256 KiB) rejects it before any parsing
// side: compile
// repeat_body: 8000
// expect: rejected
// message: exceeds the limit of 262144 bytes per kernel file
__device__ __forceinline__ float pad(float v) { return v * 1.0f + 0.0f - 0.0f; } // ...........
