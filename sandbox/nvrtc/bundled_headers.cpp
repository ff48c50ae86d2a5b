#include "sandbox/nvrtc/bundled_headers.h"

namespace pf::nvrtc {

bool is_bundled_header(std::string_view name) {
  for (const auto& h : bundled_headers()) {
    if (name == h.name) return true;
  }
  return false;
}

}  // namespace pf::nvrtc
