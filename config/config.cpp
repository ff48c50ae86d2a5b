#include "config/config.h"

#include <cstdlib>

namespace pf {

std::string read_api_key(const EndpointConfig& endpoint) {
  const char* key = std::getenv(endpoint.api_key_env.c_str());
  return key ? key : "";
}

std::string effective_nvrtc_cache_dir(const EvaluatorConfig& evaluator) {
  if (!evaluator.nvrtc_cache_dir.empty()) return evaluator.nvrtc_cache_dir;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/passforge/nvrtc";
  const char* home = std::getenv("HOME");
  if (home && *home == '/') return std::string(home) + "/.cache/passforge/nvrtc";
  // No usable home: beside the working directory, never a shared /tmp path
  // where another user could plant cache entries.
  return ".passforge-cache/nvrtc";
}

}  // namespace pf
