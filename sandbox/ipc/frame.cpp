#include "sandbox/ipc/frame.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "sandbox/ipc/fd.h"

namespace pf::sandbox::ipc {
namespace {

// Waits until `fd` is ready for `events` or the deadline passes.
Status wait_ready(int fd, short events, Deadline deadline, const char* what) {
  for (;;) {
    pollfd p{fd, events, 0};
    int rc = ::poll(&p, 1, poll_timeout_ms(deadline));
    if (rc > 0) return ok_status();  // readiness, HUP and ERR are all seen by the next call
    if (rc == 0) {
      return make_error(ErrorCode::timeout, std::string("deadline passed while ") + what);
    }
    if (errno != EINTR) return sys_error("poll", errno);
  }
}

Status write_all(int fd, std::string_view bytes, Deadline deadline) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n >= 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EPIPE || errno == ECONNRESET) {
      return make_error(ErrorCode::unavailable, "peer closed the connection (write: EPIPE)");
    }
    if (errno != EAGAIN && errno != EWOULDBLOCK) return sys_error("write", errno);
    PF_TRY(wait_ready(fd, POLLOUT, deadline, "writing a frame"));
  }
  return ok_status();
}

// Reads exactly `size` bytes. `clean_eof` is set when the peer closed before
// the first byte (a frame boundary), which callers report differently from a
// frame cut short.
Status read_exact(int fd, char* out, size_t size, Deadline deadline, bool* clean_eof) {
  size_t done = 0;
  *clean_eof = false;
  while (done < size) {
    ssize_t n = ::read(fd, out + done, size - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n == 0) {
      *clean_eof = done == 0;
      return make_error(ErrorCode::unavailable, "peer closed the connection");
    }
    if (errno == EINTR) continue;
    if (errno == ECONNRESET) return make_error(ErrorCode::unavailable, "connection reset by peer");
    if (errno != EAGAIN && errno != EWOULDBLOCK) return sys_error("read", errno);
    PF_TRY(wait_ready(fd, POLLIN, deadline, "reading a frame"));
  }
  return ok_status();
}

// Nesting depth of JSON text, ignoring brackets inside strings. nlohmann's
// parser and dump() recurse per level, so depth is bounded before parsing.
int json_depth(std::string_view text) {
  int depth = 0;
  int max_depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return max_depth;
}

}  // namespace

std::string encode_frame(const nlohmann::json& message) {
  std::string payload = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  auto size = static_cast<uint32_t>(payload.size());
  std::string frame;
  frame.reserve(4 + payload.size());
  for (int i = 0; i < 4; ++i) frame.push_back(static_cast<char>((size >> (8 * i)) & 0xffu));
  frame += payload;
  return frame;
}

Status write_frame(int fd, const nlohmann::json& message, Deadline deadline) {
  std::string frame = encode_frame(message);
  if (frame.size() - 4 > kMaxFrameBytes) {
    return make_error(ErrorCode::invalid_argument, "message of " +
                                                       std::to_string(frame.size() - 4) +
                                                       " bytes exceeds the IPC frame limit of " +
                                                       std::to_string(kMaxFrameBytes) + " bytes");
  }
  return write_all(fd, frame, deadline);
}

Result<nlohmann::json> parse_payload(std::string_view payload) {
  int depth = json_depth(payload);
  if (depth > kMaxJsonDepth) {
    return make_error(ErrorCode::parse_error, "IPC frame JSON nests " + std::to_string(depth) +
                                                  " levels deep (limit " +
                                                  std::to_string(kMaxJsonDepth) + ")");
  }
  auto value = nlohmann::json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    return make_error(ErrorCode::parse_error,
                      "IPC frame is not valid JSON (" + std::to_string(payload.size()) + " bytes)");
  }
  return value;
}

Result<nlohmann::json> read_frame(int fd, Deadline deadline, uint32_t max_bytes) {
  unsigned char header[4];
  bool clean_eof = false;
  auto st = read_exact(fd, reinterpret_cast<char*>(header), 4, deadline, &clean_eof);
  if (!st.ok()) {
    if (st.error().code == ErrorCode::unavailable && !clean_eof) {
      return make_error(ErrorCode::parse_error, "IPC frame header truncated (peer closed)");
    }
    return std::move(st).error();
  }
  uint32_t size = 0;
  for (int i = 0; i < 4; ++i) size |= static_cast<uint32_t>(header[i]) << (8 * i);
  if (size > max_bytes) {
    return make_error(ErrorCode::parse_error, "IPC frame announces " + std::to_string(size) +
                                                  " bytes, over the limit of " +
                                                  std::to_string(max_bytes));
  }
  std::string payload(size, '\0');
  st = read_exact(fd, payload.data(), size, deadline, &clean_eof);
  if (!st.ok()) {
    if (st.error().code == ErrorCode::unavailable) {
      return make_error(ErrorCode::parse_error, "IPC frame truncated: peer closed before " +
                                                    std::to_string(size) +
                                                    " payload bytes arrived");
    }
    return std::move(st).error();
  }
  return parse_payload(payload);
}

}  // namespace pf::sandbox::ipc
