#include "agent/scheduler/shard.h"

#include <charconv>
#include <nlohmann/json.hpp>

#include "common/fs.h"

namespace pf::agent {
namespace {

namespace fs = std::filesystem;
constexpr const char* kShardFile = "shard.json";

bool parse_int(std::string_view s, int64_t& out) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

Result<Shard> make_shard(int64_t index, int64_t count, std::string source) {
  if (count < 1 || index < 0 || index >= count) {
    return make_error(ErrorCode::invalid_argument, "shard " + std::to_string(index) + "/" +
                                                       std::to_string(count) + " (from " + source +
                                                       ") is not a shard: need 0 <= K < N");
  }
  return Shard{index, count, std::move(source)};
}

Result<int64_t> env_int(const EnvLookup& env, const char* name, const std::string& source) {
  const char* v = env(name);
  if (v == nullptr) {
    return make_error(ErrorCode::invalid_argument, "--shard env: " + source + " needs " +
                                                       std::string(name) + ", which is unset");
  }
  int64_t out = 0;
  if (!parse_int(v, out)) {
    return make_error(ErrorCode::invalid_argument,
                      "--shard env: " + std::string(name) + "='" + v + "' is not an integer");
  }
  return out;
}

Result<Shard> from_slurm(const EnvLookup& env) {
  const std::string src = "slurm";
  PF_ASSIGN(int64_t id, env_int(env, "SLURM_ARRAY_TASK_ID", src));
  // Arrays need not start at 0 (--array=1-4): shards count from the minimum.
  int64_t min = 0;
  if (env("SLURM_ARRAY_TASK_MIN") != nullptr) {
    PF_ASSIGN(min, env_int(env, "SLURM_ARRAY_TASK_MIN", src));
  }
  int64_t count = 0;
  if (env("SLURM_ARRAY_TASK_COUNT") != nullptr) {
    PF_ASSIGN(count, env_int(env, "SLURM_ARRAY_TASK_COUNT", src));
  } else {
    PF_ASSIGN(int64_t max, env_int(env, "SLURM_ARRAY_TASK_MAX", src));
    count = max - min + 1;
  }
  return make_shard(id - min, count, src);
}

Result<Shard> from_kubernetes(const EnvLookup& env) {
  const std::string src = "kubernetes";
  PF_ASSIGN(int64_t index, env_int(env, "JOB_COMPLETION_INDEX", src));
  PF_ASSIGN(int64_t count, env_int(env, "PASSFORGE_SHARDS", src));
  return make_shard(index, count, src);
}

}  // namespace

int64_t Shard::share_of(int64_t total) const {
  if (total <= index) return 0;
  return (total - index + count - 1) / count;
}

std::string Shard::dir_name() const {
  return "shard-" + std::to_string(index) + "-of-" + std::to_string(count);
}

Result<Shard> parse_shard(std::string_view spec, const EnvLookup& env) {
  if (spec == "env") {
    if (env("SLURM_ARRAY_TASK_ID") != nullptr) return from_slurm(env);
    if (env("JOB_COMPLETION_INDEX") != nullptr) return from_kubernetes(env);
    return make_error(ErrorCode::invalid_argument,
                      "--shard env: neither a Slurm job array (SLURM_ARRAY_TASK_ID) nor a "
                      "Kubernetes Indexed Job (JOB_COMPLETION_INDEX) is in the environment");
  }
  const size_t slash = spec.find('/');
  int64_t k = 0;
  int64_t n = 0;
  if (slash == std::string_view::npos || !parse_int(spec.substr(0, slash), k) ||
      !parse_int(spec.substr(slash + 1), n)) {
    return make_error(ErrorCode::invalid_argument,
                      "--shard '" + std::string(spec) + "': expected K/N (e.g. 0/4) or 'env'");
  }
  return make_shard(k, n, "--shard");
}

std::string shard_job_run_id(const EnvLookup& env) {
  if (const char* id = env("SLURM_ARRAY_JOB_ID")) return std::string("slurm-") + id;
  if (const char* name = env("PASSFORGE_JOB_NAME")) return std::string("k8s-") + name;
  return "";
}

Status write_shard_file(const fs::path& run_dir, const Shard& shard) {
  nlohmann::json j = {{"index", shard.index}, {"count", shard.count}, {"source", shard.source}};
  return write_file_atomic(run_dir / kShardFile, j.dump(2) + "\n");
}

Result<Shard> read_shard_file(const fs::path& run_dir) {
  std::error_code ec;
  if (!fs::exists(run_dir / kShardFile, ec)) return Shard{};
  PF_ASSIGN(std::string text, read_file(run_dir / kShardFile));
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("index") || !j.contains("count") ||
      !j["index"].is_number_integer() || !j["count"].is_number_integer()) {
    return make_error(ErrorCode::invalid_argument,
                      (run_dir / kShardFile).string() + ": not a shard file");
  }
  return make_shard(j["index"].get<int64_t>(), j["count"].get<int64_t>(),
                    j.value("source", std::string("--shard")));
}

}  // namespace pf::agent
