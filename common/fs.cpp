#include "common/fs.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace pf {

Result<std::string> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(errno == ENOENT ? ErrorCode::not_found : ErrorCode::io_error,
                      "cannot open " + path.string() + ": " + std::strerror(errno));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return make_error(ErrorCode::io_error, "cannot read " + path.string());
  return ss.str();
}

Status write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  auto tmp = path;
  tmp += ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      return make_error(ErrorCode::io_error,
                        "cannot write " + tmp.string() + ": " + std::strerror(errno));
    }
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) return make_error(ErrorCode::io_error, "short write to " + tmp.string());
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) return make_error(ErrorCode::io_error, "rename to " + path.string() + ": " + ec.message());
  return ok_status();
}

std::filesystem::path executable_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return std::filesystem::current_path();
  return exe.parent_path();
}

}  // namespace pf
