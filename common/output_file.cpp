#include "common/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace pf {
namespace {

Error sys_error(const std::string& call, const std::filesystem::path& p, int err) {
  return make_error(ErrorCode::io_error, call + " " + p.string() + ": " + std::strerror(err));
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::string unsafe_destination(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    // A dangling symlink would be replaced by the rename, not written through:
    // refuse it rather than guess what it meant.
    struct stat lst {};
    if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
      return path.string() + " is a symlink to a missing file";
    }
    return "";
  }
  if (S_ISREG(st.st_mode)) return "";
  return path.string() + " is " + kind_of(st.st_mode) + "; only a regular file may be replaced";
}

Result<OutputFile> OutputFile::open(const std::filesystem::path& path) {
  if (path.empty()) return make_error(ErrorCode::invalid_argument, "empty output path");
  if (auto why = unsafe_destination(path); !why.empty()) {
    return make_error(ErrorCode::invalid_argument, "refusing to write: " + why);
  }
  OutputFile f;
  f.path_ = path;
  f.target_ = path;
  std::error_code ec;
  if (std::filesystem::is_symlink(path, ec)) {
    auto resolved = std::filesystem::canonical(path, ec);
    if (ec) return sys_error("resolving", path, ec.value());
    f.target_ = resolved;
  }
  auto dir = f.target_.has_parent_path() ? f.target_.parent_path() : std::filesystem::path(".");
  std::filesystem::create_directories(dir, ec);
  if (ec) return sys_error("creating directory", dir, ec.value());
  std::string tmpl = (dir / ("." + f.target_.filename().string() + ".XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) return sys_error("creating a temporary file in", dir, errno);
  // mkstemp creates 0600; an export is an ordinary file, readable as umask allows.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  f.fd_ = fd;
  f.tmp_ = tmpl;
  return f;
}

OutputFile::OutputFile(OutputFile&& o) noexcept
    : path_(std::move(o.path_)),
      target_(std::move(o.target_)),
      tmp_(std::move(o.tmp_)),
      fd_(std::exchange(o.fd_, -1)),
      bytes_(o.bytes_) {}

OutputFile& OutputFile::operator=(OutputFile&& o) noexcept {
  if (this != &o) {
    discard();
    path_ = std::move(o.path_);
    target_ = std::move(o.target_);
    tmp_ = std::move(o.tmp_);
    fd_ = std::exchange(o.fd_, -1);
    bytes_ = o.bytes_;
  }
  return *this;
}

OutputFile::~OutputFile() {
  discard();
}

void OutputFile::discard() {
  if (fd_ < 0) return;
  ::close(fd_);
  fd_ = -1;
  ::unlink(tmp_.c_str());
}

Status OutputFile::write(std::string_view data) {
  if (fd_ < 0) return make_error(ErrorCode::internal, "write to a closed output " + path_.string());
  while (!data.empty()) {
    ssize_t n = ::write(fd_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return sys_error("writing", tmp_, errno);
    }
    data.remove_prefix(static_cast<size_t>(n));
    bytes_ += n;
  }
  return ok_status();
}

Status OutputFile::commit() {
  if (fd_ < 0)
    return make_error(ErrorCode::internal, "commit of a closed output " + path_.string());
  if (::fsync(fd_) != 0) {
    int err = errno;
    discard();
    return sys_error("fsync", tmp_, err);
  }
  int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp_.c_str());
    return sys_error("close", tmp_, err);
  }
  // Checked again: the destination may have changed while the content was written.
  if (auto why = unsafe_destination(target_); !why.empty()) {
    ::unlink(tmp_.c_str());
    return make_error(ErrorCode::invalid_argument, "refusing to write: " + why);
  }
  if (::rename(tmp_.c_str(), target_.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp_.c_str());
    return sys_error("rename to", target_, err);
  }
  return ok_status();
}

}  // namespace pf
