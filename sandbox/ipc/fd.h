// RAII ownership of file descriptors and errno-carrying errors for system
// calls: every failure names the call and the errno.
#pragma once

#include <string>

#include "common/result.h"

namespace pf::sandbox {

//! Owns one file descriptor and closes it on destruction. Not thread-safe.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  //! Gives up ownership without closing.
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  //! Closes the current descriptor (if any) and owns `fd` instead.
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

//! "socketpair: Too many open files (errno 24, EMFILE)" as an io_error
//! (timeout for ETIMEDOUT, unsupported for ENOSYS).
Error sys_error(const std::string& call, int err);

//! "EPERM" for errno 1, "errno 1234" for values glibc does not name.
std::string errno_name(int err);

Status set_nonblocking(int fd, bool on);

}  // namespace pf::sandbox
