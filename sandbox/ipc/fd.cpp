#include "sandbox/ipc/fd.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <cerrno>

namespace pf::sandbox {

void Fd::reset(int fd) {
  if (fd_ >= 0 && fd_ != fd) {
    // close() must not be retried on EINTR on Linux: the descriptor is gone.
    ::close(fd_);
  }
  fd_ = fd;
}

std::string errno_name(int err) {
  const char* name = strerrorname_np(err);
  return name != nullptr ? std::string(name) : "errno " + std::to_string(err);
}

Error sys_error(const std::string& call, int err) {
  ErrorCode code = ErrorCode::io_error;
  if (err == ETIMEDOUT) code = ErrorCode::timeout;
  if (err == ENOSYS) code = ErrorCode::unsupported;
  return make_error(code, call + ": " + strerror(err) + " (errno " + std::to_string(err) + ", " +
                              errno_name(err) + ")");
}

Status set_nonblocking(int fd, bool on) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) return sys_error("fcntl(F_GETFL)", errno);
  flags = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
  if (::fcntl(fd, F_SETFL, flags) < 0) return sys_error("fcntl(F_SETFL)", errno);
  return ok_status();
}

}  // namespace pf::sandbox
