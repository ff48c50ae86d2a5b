#include "common/fs.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/output_file.h"

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
  PF_ASSIGN(OutputFile out, OutputFile::open(path));
  PF_TRY(out.write(content));
  return out.commit();
}

std::filesystem::path executable_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return std::filesystem::current_path();
  return exe.parent_path();
}

}  // namespace pf
