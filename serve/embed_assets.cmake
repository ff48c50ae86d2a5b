# Writes OUTPUT: a C++ source embedding the files listed in SOURCES (the
# pages' assets) as raw string literals with their content types
# (static_assets.h). Run with cmake -P at build time.
set(body "")
foreach(path IN LISTS SOURCES)
  get_filename_component(name "${path}" NAME)
  get_filename_component(ext "${path}" LAST_EXT)
  if(ext STREQUAL ".html")
    set(type "text/html; charset=utf-8")
  elseif(ext STREQUAL ".js")
    set(type "text/javascript; charset=utf-8")
  elseif(ext STREQUAL ".css")
    set(type "text/css; charset=utf-8")
  elseif(ext STREQUAL ".svg")
    set(type "image/svg+xml")
  else()
    message(FATAL_ERROR "${name}: no content type for '${ext}' files")
  endif()
  file(READ "${path}" text)
  string(FIND "${text}" ")pf_asset\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${name} contains the raw-string delimiter")
  endif()
  string(APPEND body "      {\"${name}\", \"${type}\", R\"pf_asset(${text})pf_asset\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp"
"// Generated from serve/assets/ by serve/embed_assets.cmake; do not edit.
#include \"serve/static_assets.h\"

namespace pf::serve {

const StaticAsset* find_static_asset(std::string_view name) {
  static const StaticAsset assets[] = {
${body}  };
  for (const auto& a : assets) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

}  // namespace pf::serve
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
