// hostile: template_recursion
// what: compile bomb through unbounded template instantiation depth
// how: R<N> instantiates R<N-1> and R<N-2> down from 100000
// defence: the front end's recursion limit turns it into a quick compile error
// side: compile
// expect: compile_error
// message: excessive recursion
template <int N> struct R { static constexpr long v = R<N - 1>::v + R<N - 2>::v; };
template <> struct R<0> { static constexpr long v = 0; };
template <> struct R<1> { static constexpr long v = 1; };
extern "C" __global__ void k(long* out) { out[0] = R<100000>::v; }
