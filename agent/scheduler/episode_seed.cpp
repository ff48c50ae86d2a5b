#include "agent/scheduler/episode_seed.h"

#include <string>

#include "common/sha256.h"

namespace pf::agent {

int64_t episode_seed(int64_t run_seed, std::string_view task_id, int64_t sample) {
  std::string hex = sha256_hex(std::to_string(run_seed) + "/" + std::string(task_id) + "/" +
                               std::to_string(sample));
  return static_cast<int64_t>(std::stoul(hex.substr(0, 8), nullptr, 16) & 0x7fffffffu);
}

}  // namespace pf::agent
