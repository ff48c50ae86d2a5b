# Writes OUTPUT: a C++ source embedding the baseline kernel sources listed in
# SOURCES (paths) as raw string literals (kernel_sources.h), so the worker
# reads no kernel file at run time. Run with cmake -P at build time.
set(body "")
foreach(path IN LISTS SOURCES)
  get_filename_component(name "${path}" NAME)
  file(READ "${path}" text)
  string(FIND "${text}" ")pf_kernel\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name} contains the raw-string delimiter")
  endif()
  string(APPEND body "      {\"${name}\", R\"pf_kernel(${text})pf_kernel\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp"
"// Generated from evaluator/gpu/kernels/ by evaluator/gpu/embed_kernels.cmake; do not edit.
#include \"evaluator/gpu/kernel_sources.h\"

namespace pf::gpu {

const std::vector<KernelSource>& kernel_sources() {
  static const std::vector<KernelSource> sources = {
${body}  };
  return sources;
}

}  // namespace pf::gpu
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
