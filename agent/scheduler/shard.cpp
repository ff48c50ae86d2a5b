#include "agent/scheduler/shard.h"

#include <charconv>

#include "common/sha256.h"
#include "config/config_json.h"

namespace pf::agent {
namespace {

std::optional<int64_t> to_int(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

Result<Shard> checked(int64_t index, int64_t count, const std::string& where) {
  if (count < 1 || count > 100000 || index < 0 || index >= count) {
    return make_error(ErrorCode::invalid_argument,
                      where + ": shard " + std::to_string(index) + " of " + std::to_string(count) +
                          " is not a shard (need 0 <= K < N <= 100000)");
  }
  return Shard{static_cast<int>(index), static_cast<int>(count)};
}

// A variable that must be an integer when set.
Result<std::optional<int64_t>> env_int(const EnvLookup& env, const char* name) {
  auto v = env(name);
  if (!v) return std::optional<int64_t>();
  auto n = to_int(*v);
  if (!n) {
    return make_error(ErrorCode::invalid_argument,
                      std::string(name) + "='" + *v + "' is not an integer");
  }
  return std::optional<int64_t>(*n);
}

}  // namespace

Result<Shard> parse_shard(std::string_view text) {
  size_t slash = text.find('/');
  auto k = to_int(text.substr(0, slash));
  auto n = slash == std::string_view::npos ? std::nullopt : to_int(text.substr(slash + 1));
  if (!k || !n) {
    return make_error(ErrorCode::invalid_argument,
                      "--shard " + std::string(text) + ": expected K/N, e.g. 0/4");
  }
  return checked(*k, *n, "--shard " + std::string(text));
}

Result<std::optional<Shard>> shard_from_environment(const EnvLookup& env) {
  PF_ASSIGN(auto slurm_id, env_int(env, "SLURM_ARRAY_TASK_ID"));
  if (slurm_id) {
    PF_ASSIGN(auto min, env_int(env, "SLURM_ARRAY_TASK_MIN"));
    PF_ASSIGN(auto max, env_int(env, "SLURM_ARRAY_TASK_MAX"));
    PF_ASSIGN(auto step, env_int(env, "SLURM_ARRAY_TASK_STEP"));
    PF_ASSIGN(auto count, env_int(env, "SLURM_ARRAY_TASK_COUNT"));
    const int64_t lo = min.value_or(0), by = step.value_or(1);
    if (by < 1 || (*slurm_id - lo) % by != 0) {
      return make_error(ErrorCode::invalid_argument,
                        "SLURM_ARRAY_TASK_ID " + std::to_string(*slurm_id) +
                            " is not on the array's grid (min " + std::to_string(lo) + ", step " +
                            std::to_string(by) + ")");
    }
    if (!count && max) count = (*max - lo) / by + 1;
    if (!count) {
      return make_error(ErrorCode::invalid_argument,
                        "SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor "
                        "SLURM_ARRAY_TASK_MAX: cannot tell how many shards there are");
    }
    PF_ASSIGN(Shard s, checked((*slurm_id - lo) / by, *count, "Slurm job array"));
    return std::optional<Shard>(s);
  }
  PF_ASSIGN(auto k8s_index, env_int(env, "JOB_COMPLETION_INDEX"));
  if (k8s_index) {
    PF_ASSIGN(auto count, env_int(env, "PASSFORGE_SHARDS"));
    if (!count) {
      return make_error(ErrorCode::invalid_argument,
                        "JOB_COMPLETION_INDEX is set but PASSFORGE_SHARDS is not: set it to the "
                        "Indexed Job's completions");
    }
    PF_ASSIGN(Shard s, checked(*k8s_index, *count, "Kubernetes Indexed Job"));
    return std::optional<Shard>(s);
  }
  return std::optional<Shard>();
}

int64_t shard_episodes(int64_t total, const Shard& s) {
  return total > s.index ? (total - s.index + s.count - 1) / s.count : 0;
}

std::string sharded_run_id(const Config& config) {
  Config c = config;
  c.run.shard_index = 0;
  c.run.shard_count = 1;
  return "shards-" + sha256_hex(config_to_json(c).dump()).substr(0, 16);
}

std::string shard_dir_name(const std::string& run_id, const Shard& s) {
  if (s.count == 1) return run_id;
  return run_id + "-shard-" + std::to_string(s.index) + "-of-" + std::to_string(s.count);
}

}  // namespace pf::agent
