// What a pass's kernel sources may contain, checked BEFORE NVRTC sees them
// (docs/design.md "The pass": no file-system includes). NVRTC gets no include path
// and --no-source-include; this filter makes every way of naming a file an
// explicit, explained rejection:
//   - #include / %:include only of a bundled header (<cuda_fp16.h>,
//     <cuda_bf16.h>), written literally: no macro-expanded includes;
//   - no #include_next, #import, #embed, #line (spoofs diagnostics), GNU line
//     markers, #ident/#sccs/#assert or other unknown directives;
//   - #pragma / _Pragma only from an allowlist (unroll, once, diagnostics, ...)
//     and _Pragma only with a literal string;
//   - no __has_include / __has_include_next / __has_embed (file-system probes).
// Token pasting can still assemble __has_include inside #if; that probe opens
// the file, which the worker's Landlock policy denies (so it answers "absent").
// Limits bound the size of what is compiled.
#pragma once

#include <map>
#include <string>

#include "common/result.h"

namespace pf::nvrtc {

struct SourceLimits {
  size_t max_files = 16;
  size_t max_file_bytes = 256 * 1024;
  size_t max_total_bytes = 1024 * 1024;
};

//! Workspace-relative .cu names only: "kernels/ln.cu"; no absolute paths, no
//! "..", no characters outside [A-Za-z0-9_.-/].
Status check_source_name(const std::string& name);

//! One file: errors name "file:line" and say what is allowed instead.
Status check_source(const std::string& name, const std::string& source, const SourceLimits& limits);

//! Every file and the file-count/total limits; all problems, one per line.
Status check_sources(const std::map<std::string, std::string>& files, const SourceLimits& limits);

}  // namespace pf::nvrtc
