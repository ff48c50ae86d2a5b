// Static integrity flags on kernel source (docs/design.md "Integrity"): reading a
// timer (clock(), clock64(), %globaltimer in inline PTX) can make a kernel
// behave differently when timed; device malloc/new and mutable __device__
// globals can carry state between runs (caching results across trials).
// Flags do not fail a compile; they travel with the evaluation as hack_flags.
// Inline assembly is reported too, as context for the other flags.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/nvrtc/source_scanner.h"

namespace pf::nvrtc {

enum class SourceFlagKind { timer_read, device_malloc, mutable_global, inline_asm };

const char* source_flag_name(SourceFlagKind kind);

struct SourceFlag {
  SourceFlagKind kind;
  std::string file;
  int line = 0;
  std::string detail;  // the token or declaration that raised it
  //! "source": the token scan (an early hint); "ptx": the compiled PTX
  //! (ptx_flags.h), what the kernel really does.
  std::string origin = "source";
  nlohmann::json to_json() const;
  //! Reads to_json's object back (the compile cache); throws on a bad one.
  static SourceFlag from_json(const nlohmann::json& j);
};

std::vector<SourceFlag> detect_source_flags(const std::string& file,
                                            const std::vector<Token>& tokens);

}  // namespace pf::nvrtc
