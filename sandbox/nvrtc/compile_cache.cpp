#include "sandbox/nvrtc/compile_cache.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <thread>

#include "common/fs.h"
#include "common/sha256.h"
#include "sandbox/cuda/shared_library.h"

namespace pf::nvrtc {
namespace fs = std::filesystem;
namespace {

// Bumped whenever the entry layout or the key recipe changes.
constexpr int kFormat = 3;  // 2: entries carry the PTX flags; 3: and their key

Status write_all(int fd, const std::string& data, const fs::path& path) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return make_error(ErrorCode::io_error,
                        "write " + path.string() + ": " + std::strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  return ok_status();
}

}  // namespace

nlohmann::json CacheStats::to_json() const {
  return {{"hits", hits},       {"misses", misses},
          {"stores", stores},   {"store_failures", store_failures},
          {"corrupt", corrupt}, {"evicted", evicted}};
}

fs::path CompileCache::default_dir() {
  auto xdg = cuda::env_or_empty("XDG_CACHE_HOME");
  if (!xdg.empty()) return fs::path(xdg) / "passforge" / "nvrtc";
  auto home = cuda::env_or_empty("HOME");
  if (!home.empty()) return fs::path(home) / ".cache" / "passforge" / "nvrtc";
  return {};
}

std::string CompileCache::key(const std::string& file, const std::string& source,
                              const std::vector<std::string>& options, const std::string& arch,
                              const std::string& nvrtc_version, const std::string& headers_sha256) {
  Sha256 h;
  h.update("passforge-nvrtc-cache " + std::to_string(kFormat) + "\n");
  h.update("nvrtc " + nvrtc_version + "\narch " + arch + "\nheaders " + headers_sha256 + "\n");
  for (const auto& o : options) h.update("option " + std::to_string(o.size()) + " " + o + "\n");
  h.update("file " + std::to_string(file.size()) + " " + file + "\n");
  h.update("source " + std::to_string(source.size()) + "\n");
  h.update(source);
  return h.hex_digest();
}

fs::path CompileCache::path_for(const std::string& key) const {
  return dir_ / ("v" + std::to_string(kFormat)) / key.substr(0, 2) / (key + ".entry");
}

std::optional<CacheEntry> CompileCache::lookup(const std::string& key) {
  auto data = read_file(path_for(key));
  if (!data.ok()) {
    ++misses_;
    return std::nullopt;
  }
  // Layout: one line of JSON metadata, then the cubin bytes.
  try {
    size_t nl = data->find('\n');
    if (nl == std::string::npos) throw std::runtime_error("no header line");
    auto meta = nlohmann::json::parse(data->substr(0, nl));
    if (meta.at("key").get<std::string>() != key) {
      throw std::runtime_error("the entry belongs to key " + meta.at("key").get<std::string>());
    }
    CacheEntry e;
    e.compiled = meta.at("compiled").get<bool>();
    e.log = meta.at("log").get<std::string>();
    e.cubin = data->substr(nl + 1);
    if (e.cubin.size() != meta.at("cubin_bytes").get<size_t>() ||
        sha256_hex(e.cubin) != meta.at("cubin_sha256").get<std::string>()) {
      throw std::runtime_error("cubin checksum mismatch");
    }
    for (const auto& k : meta.at("kernels")) e.kernels.push_back(cuda::KernelInfo::from_json(k));
    for (const auto& f : meta.at("ptx_flags")) e.ptx_flags.push_back(SourceFlag::from_json(f));
    // The modification time is the entry's last use, for eviction; a cache
    // on a read-only medium simply stays unordered.
    (void)::utimensat(AT_FDCWD, path_for(key).c_str(), nullptr, 0);
    ++hits_;
    return e;
  } catch (const std::exception& ex) {
    spdlog::warn("NVRTC cache entry {} is damaged ({}); recompiling", path_for(key).string(),
                 ex.what());
    ++corrupt_;
    ++misses_;
    return std::nullopt;
  }
}

Status CompileCache::store(const std::string& key, const CacheEntry& entry) {
  const fs::path path = path_for(key);
  auto fail = [&](Error e) -> Status {
    ++store_failures_;
    spdlog::warn("NVRTC cache: cannot store {}: {}", path.string(), e.message);
    return e;
  };
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) {
    return fail(
        make_error(ErrorCode::io_error,
                   "create_directories " + path.parent_path().string() + ": " + ec.message()));
  }
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : entry.kernels) kernels.push_back(k.to_json());
  nlohmann::json ptx_flags = nlohmann::json::array();
  for (const auto& f : entry.ptx_flags) ptx_flags.push_back(f.to_json());
  nlohmann::json meta{{"format", kFormat},
                      {"ptx_flags", ptx_flags},
                      {"key", key},
                      {"compiled", entry.compiled},
                      {"log", entry.log},
                      {"kernels", kernels},
                      {"cubin_bytes", entry.cubin.size()},
                      {"cubin_sha256", sha256_hex(entry.cubin)}};
  std::string data =
      meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n" + entry.cubin;

  // Unique per process and thread, so concurrent writers never share a temp file.
  static std::atomic<uint64_t> counter{0};
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()) % 1000000) + "." +
         std::to_string(counter++);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    return fail(
        make_error(ErrorCode::io_error, "open " + tmp.string() + ": " + std::strerror(errno)));
  }
  Status written = write_all(fd, data, tmp);
  ::close(fd);
  if (!written.ok()) {
    ::unlink(tmp.c_str());
    return fail(written.error());
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    Error e =
        make_error(ErrorCode::io_error, "rename " + tmp.string() + ": " + std::strerror(errno));
    ::unlink(tmp.c_str());
    return fail(e);
  }
  ++stores_;
  if (max_bytes_ != 0 && usage().bytes > max_bytes_) evict_to(max_bytes_ / 10 * 9);
  return ok_status();
}

uint64_t CompileCache::evict_to(uint64_t target_bytes) {
  struct Entry {
    fs::file_time_type used;
    uint64_t bytes;
    fs::path path;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().extension() != ".entry") continue;
    Entry e{it->last_write_time(ec), it->file_size(ec), it->path()};
    if (ec) continue;
    total += e.bytes;
    entries.push_back(std::move(e));
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.used < b.used; });
  uint64_t removed = 0;
  for (const auto& e : entries) {
    if (total <= target_bytes) break;
    // Another worker may have removed it already: only what this call
    // removes counts.
    if (fs::remove(e.path, ec)) {
      total -= e.bytes;
      ++removed;
    }
  }
  evicted_ += removed;
  if (removed > 0) {
    spdlog::info("NVRTC cache {}: evicted {} least recently used entries (bound {} MiB)",
                 dir_.string(), removed, max_bytes_ >> 20);
  }
  return removed;
}

CacheStats CompileCache::stats() const {
  return {hits_.load(),           misses_.load(),  stores_.load(),
          store_failures_.load(), corrupt_.load(), evicted_.load()};
}

CacheUsage CompileCache::usage() const {
  CacheUsage u;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".entry") {
      ++u.entries;
      u.bytes += it->file_size(ec);
    }
  }
  return u;
}

void CompileCache::log_summary() const {
  auto s = stats();
  spdlog::info("NVRTC cache {}: {} hits, {} misses, {} stores{}{}", dir_.string(), s.hits, s.misses,
               s.stores,
               s.store_failures ? fmt::format(", {} store failures", s.store_failures) : "",
               s.corrupt ? fmt::format(", {} damaged entries", s.corrupt) : "");
}

}  // namespace pf::nvrtc
