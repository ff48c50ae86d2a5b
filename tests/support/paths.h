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
//! tests/data/graphnet-slices: the GraphNet slices (MIT, shipped with their
//! licence note) that the reference passes solve, one raw task directory each.
std::filesystem::path graphnet_slices_dir();
//! The corpus directory named by PF_CORPUS_DIR (holding graphnet-slices/,
//! graphnet-slices-more/, passnet-fusible/), "" when unset. Suites over the
//! whole corpus, or over data the repository may not ship (passnet-fusible),
//! run only with it and say so when they skip.
std::filesystem::path optional_corpus_dir();

}  // namespace pf::test
