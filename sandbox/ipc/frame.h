// Length-prefixed JSON frames over a stream descriptor (socketpair or pipe):
// a 4-byte little-endian payload length, then that many bytes of UTF-8 JSON.
// Both processes use these functions; sizes and nesting depth are
// checked on receipt before parsing, so a hostile peer cannot make the reader
// allocate without bound or recurse deeply.
//
// The descriptors must be non-blocking (set_nonblocking): waiting happens in
// poll(2) against the deadline, and EINTR is retried. Writes never raise
// SIGPIPE. Not thread-safe per descriptor: one reader and one writer at a time.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "common/result.h"
#include "sandbox/ipc/deadline.h"

namespace pf::sandbox::ipc {

inline constexpr uint32_t kMaxFrameBytes = 64u << 20;
inline constexpr int kMaxJsonDepth = 128;

//! The bytes of one frame: header + compact JSON (invalid UTF-8 in strings is
//! replaced by U+FFFD rather than failing).
std::string encode_frame(const nlohmann::json& message);

//! Writes one whole frame before `deadline`.
//! Errors: timeout; unavailable when the peer has closed; io_error otherwise.
Status write_frame(int fd, const nlohmann::json& message, Deadline deadline);

//! Reads one whole frame before `deadline`.
//! Errors: timeout; unavailable when the peer closed between frames;
//! parse_error for a truncated frame, an oversize length, JSON nested deeper
//! than kMaxJsonDepth or text that is not JSON; io_error otherwise.
Result<nlohmann::json> read_frame(int fd, Deadline deadline, uint32_t max_bytes = kMaxFrameBytes);

//! Parses a frame payload with the same checks read_frame applies.
Result<nlohmann::json> parse_payload(std::string_view payload);

}  // namespace pf::sandbox::ipc
