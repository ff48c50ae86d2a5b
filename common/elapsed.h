// Milliseconds since a steady-clock instant: the phases_ms every evaluation
// reports are measured with it.
#pragma once

#include <chrono>

namespace pf {

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace pf
