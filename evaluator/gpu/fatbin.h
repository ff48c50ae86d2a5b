// Reads the table of contents of a CUDA fat binary (what `nvcc -fatbin`
// writes) without a GPU: which SASS architectures and which PTX virtual
// architectures it carries. Payloads (possibly compressed) are not touched;
// the driver loads the image. Layout: a 16-byte header (magic 0xBA55ED50,
// u16 version, u16 header size, u64 size of the entries), then entries
// (u16 kind: 1 PTX, 2 ELF/SASS; u32 entry-header size at +4; u64 payload size
// at +8; u32 architecture (major*10+minor) at +28). Every read is
// bounds-checked: a damaged image is an error, never a crash.
#pragma once

#include <string_view>
#include <vector>

#include "common/result.h"

namespace pf::gpu {

struct FatbinEntry {
  enum class Kind { ptx, sass };
  Kind kind = Kind::sass;
  int arch = 0;  // 90 for sm_90 / compute_90
};

Result<std::vector<FatbinEntry>> read_fatbin_entries(std::string_view image);

//! Whether the driver can load `entries` on a device of `arch` (90): SASS of
//! the same major and a minor not above the device's (binary compatibility),
//! or PTX of a virtual architecture not above the device's (JIT).
bool fatbin_serves(const std::vector<FatbinEntry>& entries, int arch);

//! "sm_90" -> 90; 0 when the text is not of that form.
int parse_sm_arch(std::string_view arch);

}  // namespace pf::gpu
