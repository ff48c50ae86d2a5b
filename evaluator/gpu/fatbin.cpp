#include "evaluator/gpu/fatbin.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace pf::gpu {
namespace {

constexpr uint32_t kMagic = 0xBA55ED50u;
constexpr size_t kHeaderBytes = 16;
constexpr size_t kEntryMinBytes = 32;  // through the architecture field
constexpr uint16_t kKindPtx = 1;
constexpr uint16_t kKindElf = 2;

template <typename T>
bool read_at(std::string_view image, uint64_t offset, T& out) {
  if (offset > image.size() || image.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, image.data() + offset, sizeof(T));
  return true;
}

Error damaged(const std::string& what) {
  return Error{ErrorCode::invalid_argument, "damaged fat binary: " + what};
}

}  // namespace

Result<std::vector<FatbinEntry>> read_fatbin_entries(std::string_view image) {
  uint32_t magic = 0;
  uint16_t header_bytes = 0;
  uint64_t body_bytes = 0;
  if (!read_at(image, 0, magic) || magic != kMagic) return damaged("no fatbin magic");
  if (!read_at(image, 6, header_bytes) || !read_at(image, 8, body_bytes) ||
      header_bytes < kHeaderBytes || header_bytes > image.size() ||
      body_bytes > image.size() - header_bytes) {
    return damaged("header out of bounds");
  }
  std::vector<FatbinEntry> out;
  const uint64_t end = header_bytes + body_bytes;
  for (uint64_t at = header_bytes; at < end;) {
    uint16_t kind = 0;
    uint32_t entry_header = 0;
    uint64_t payload = 0;
    uint32_t arch = 0;
    if (!read_at(image, at, kind) || !read_at(image, at + 4, entry_header) ||
        !read_at(image, at + 8, payload) || !read_at(image, at + 28, arch) ||
        entry_header < kEntryMinBytes) {
      return damaged("entry at " + std::to_string(at) + " out of bounds");
    }
    if (payload > end - at || entry_header > end - at - payload) {
      return damaged("entry at " + std::to_string(at) + " runs past the end");
    }
    if (kind == kKindPtx || kind == kKindElf) {
      out.push_back({kind == kKindPtx ? FatbinEntry::Kind::ptx : FatbinEntry::Kind::sass,
                     static_cast<int>(arch)});
    }
    at += entry_header + payload;
  }
  return out;
}

bool fatbin_serves(const std::vector<FatbinEntry>& entries, int arch) {
  for (const auto& e : entries) {
    if (e.kind == FatbinEntry::Kind::sass && e.arch / 10 == arch / 10 && e.arch <= arch) {
      return true;
    }
    if (e.kind == FatbinEntry::Kind::ptx && e.arch <= arch) return true;
  }
  return false;
}

int parse_sm_arch(std::string_view arch) {
  if (arch.substr(0, 3) != "sm_" || arch.size() < 5 || arch.size() > 6) return 0;
  int value = 0;
  for (char c : arch.substr(3)) {
    if (c < '0' || c > '9') return 0;
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace pf::gpu
