// SHA-256 for content addressing (artifacts, NVRTC cache keys, prompt hashes).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace pf {

class Sha256 {
 public:
  Sha256();
  Sha256& update(std::string_view data);
  //! Lowercase hex digest; the object must not be updated afterwards.
  std::string hex_digest();

 private:
  void block(const uint8_t* p);
  std::array<uint32_t, 8> h_;
  std::array<uint8_t, 64> buf_{};
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

std::string sha256_hex(std::string_view data);

}  // namespace pf
