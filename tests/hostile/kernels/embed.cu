// hostile: embed
// what: embeds a host file's bytes into the program (C23 / C++26 #embed)
// how: static const char data[] = { #embed "/etc/passwd" };
// defence: source policy rejects #embed (and every directive not on its list)
// side: compile
// expect: rejected
// message: #embed is not allowed
__device__ const char data[] = {
#embed "/etc/passwd"
};
extern "C" __global__ void k(float* out) { out[0] = data[0]; }
