// hostile: globaltimer
// what: reads the GPU clock so the kernel can behave differently while timed
// how: inline PTX reading %globaltimer, and clock64()
// defence: static source flags (timer_read) travel with the evaluation as hack_flags
// side: compile
// expect: ok
// flags: timer_read inline_asm
extern "C" __global__ void k(unsigned long long* out) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  out[0] = t + clock64();
}
