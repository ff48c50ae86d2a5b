#include "tests/support/paths.h"

#include <cstdlib>

namespace pf::test {
namespace {

std::filesystem::path env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::filesystem::path(v) : std::filesystem::path(fallback);
}

}  // namespace

std::filesystem::path source_dir() {
  return env_or("PF_SOURCE_DIR", PF_SOURCE_DIR);
}
std::filesystem::path binary_dir() {
  return env_or("PF_BINARY_DIR", PF_BINARY_DIR);
}
std::filesystem::path worker_path() {
  return binary_dir() / "passforge-worker";
}
std::filesystem::path graphnet_slices_dir() {
  return source_dir() / "tests" / "data" / "graphnet-slices";
}
std::filesystem::path optional_corpus_dir() {
  return env_or("PF_CORPUS_DIR", "");
}

}  // namespace pf::test
