// hostile: include_digraph
// what: writes the directive with the %: digraph instead of #
// how: %:include "/etc/hostname"
// defence: the scanner reads %: as #
// side: compile
// expect: rejected
// message: #include "/etc/hostname" is not allowed
%:include "/etc/hostname"
extern "C" __global__ void k(float* out) { out[0] = 1.f; }
