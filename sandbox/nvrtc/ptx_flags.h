// Static integrity flags read from the PTX that NVRTC produced (docs/design.md
// "Integrity"): what the compiled kernel does, whatever the source looked
// like. Macros, function-scope statics, `(clock64)()` and asm strings split
// across literals all end up as the same few PTX facts:
//   - timer_read: a read of %clock, %clock64, %clock_hi or %globaltimer(_lo/_hi);
//   - device_malloc: a call of device malloc/free/new/delete (.extern .func);
//   - mutable_global: a .global variable (namespace-scope __device__,
//     __managed__ or a function-scope static) that the code writes: a store,
//     an atomic or a reduction through its address, or its address stored or
//     passed on (then anything may write it). Read-only tables
//     (`__device__ const float t[]`) are not state and are not flagged.
// Addresses are followed through registers by a flow-insensitive taint
// (mov/cvta/add... of a symbol or a tainted register), which over-approximates:
// a register that may hold a global's address counts as one that does.
// The token scan of the source (source_flags.h) stays as an early hint.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sandbox/nvrtc/source_flags.h"

namespace pf::nvrtc {

//! Flags of one file's PTX (`origin` "ptx", line 0, detail naming the fact).
std::vector<SourceFlag> detect_ptx_flags(const std::string& file, std::string_view ptx);

}  // namespace pf::nvrtc
