#include "config/config.h"

#include <cstdlib>

namespace pf {

std::string read_api_key(const EndpointConfig& endpoint) {
  const char* key = std::getenv(endpoint.api_key_env.c_str());
  return key ? key : "";
}

}  // namespace pf
