# Writes OUTPUT: a C++ source embedding the CUDA toolkit headers listed in
# HEADERS (found in INCLUDE_DIR) as raw string literals, for NVRTC's in-memory
# headers (bundled_headers.h). Run with cmake -P at build time.
set(body "")
set(all "")
foreach(name IN LISTS HEADERS)
  file(READ "${INCLUDE_DIR}/${name}" text)
  string(FIND "${text}" ")pf_cuda_header\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name} contains the raw-string delimiter")
  endif()
  string(APPEND all "${name}\n${text}")
  string(APPEND body "    {\"${name}\", R\"pf_cuda_header(${text})pf_cuda_header\"},\n")
endforeach()
string(SHA256 digest "${all}")
file(WRITE "${OUTPUT}.tmp"
"// Generated from the CUDA toolkit headers by sandbox/nvrtc/embed_headers.cmake; do not edit.
#include \"sandbox/nvrtc/bundled_headers.h\"

namespace pf::nvrtc {

const std::vector<BundledHeader>& bundled_headers() {
  static const std::vector<BundledHeader> headers = {
${body}  };
  return headers;
}

const char* bundled_headers_sha256() { return \"${digest}\"; }
const char* bundled_headers_cuda_version() { return \"${CUDA_VERSION}\"; }

}  // namespace pf::nvrtc
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
