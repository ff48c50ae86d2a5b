// Where a test finds the source tree and the build tree. The build's own
// locations are compiled in; PF_SOURCE_DIR / PF_BINARY_DIR in the environment
// override them, so a build carried to another machine (the GPU machine, via
// tests/gpu/run_device.sh) still finds its fixtures and helper binaries.
#pragma once

#include <filesystem>

namespace pf::test {

std::filesystem::path source_dir();
std::filesystem::path binary_dir();
//! passforge-worker of the build (binary_dir() follows PF_BINARY_DIR).
std::filesystem::path worker_path();

}  // namespace pf::test
