#include "evaluator/tasks/npy.h"

#include <charconv>
#include <cstring>

#include "common/fs.h"
#include "common/strings.h"

namespace pf {
namespace {

const char* descr_for(DType t) {
  switch (t) {
    case DType::boolean: return "|b1";
    case DType::uint8: return "|u1";
    case DType::int8: return "|i1";
    case DType::int16: return "<i2";
    case DType::int32: return "<i4";
    case DType::int64: return "<i8";
    case DType::float16: return "<f2";
    case DType::bfloat16: return "<f4";  // written widened, see header
    case DType::float32: return "<f4";
    case DType::float64: return "<f8";
  }
  return "<f4";
}

std::optional<DType> dtype_for(std::string_view descr) {
  static const std::pair<const char*, DType> kTable[] = {
      {"|b1", DType::boolean}, {"|u1", DType::uint8},   {"|i1", DType::int8},
      {"<i2", DType::int16},   {"<i4", DType::int32},   {"<i8", DType::int64},
      {"<f2", DType::float16}, {"<f4", DType::float32}, {"<f8", DType::float64},
  };
  for (const auto& [d, t] : kTable) {
    if (descr == d) return t;
  }
  return std::nullopt;
}

// Extracts the value of 'key' from the header dict text ("{'descr': '<f4', ...}").
std::string header_field(const std::string& header, const std::string& key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) return "";
  size_t colon = header.find(':', k);
  if (colon == std::string::npos) return "";
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos) return "";
  if (header[start] == '\'') {
    size_t end = header.find('\'', start + 1);
    return header.substr(start + 1, end - start - 1);
  }
  if (header[start] == '(') {
    size_t end = header.find(')', start);
    return header.substr(start, end - start + 1);
  }
  size_t end = header.find_first_of(",}", start);
  return std::string(trim(header.substr(start, end - start)));
}

}  // namespace

Status write_npy(const std::filesystem::path& path, const Tensor& tensor) {
  Tensor t = tensor.dtype() == DType::bfloat16 ? tensor.to_dtype(DType::float32)
                                                : tensor.contiguous_copy();
  std::string shape = "(";
  for (size_t i = 0; i < t.shape().size(); ++i) {
    if (i) shape += ", ";
    shape += std::to_string(t.shape()[i]);
  }
  if (t.shape().size() == 1) shape += ",";  // Python's one-element tuple
  shape += ")";
  std::string header = std::string("{'descr': '") + descr_for(t.dtype()) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so the data starts on a 64-byte boundary (magic 6 + version 2 + len 2).
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  uint16_t len = static_cast<uint16_t>(header.size());
  out.push_back(static_cast<char>(len & 0xff));
  out.push_back(static_cast<char>(len >> 8));
  out += header;
  out.append(reinterpret_cast<const char*>(t.data()), t.nbytes());
  return write_file_atomic(path, out);
}

Result<Tensor> read_npy(const std::filesystem::path& path) {
  PF_ASSIGN(std::string raw, read_file(path));
  auto bad = [&](const std::string& why) {
    return make_error(ErrorCode::invalid_argument, path.string() + ": not a supported .npy file: " + why);
  };
  if (raw.size() < 10 || raw.compare(0, 6, "\x93NUMPY") != 0) return bad("missing magic");
  int major = static_cast<unsigned char>(raw[6]);
  size_t header_len, offset;
  if (major == 1) {
    header_len = static_cast<unsigned char>(raw[8]) | (static_cast<unsigned char>(raw[9]) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (raw.size() < 12) return bad("truncated header");
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= size_t(static_cast<unsigned char>(raw[8 + i])) << (8 * i);
    offset = 12;
  } else {
    return bad("version " + std::to_string(major));
  }
  if (raw.size() < offset + header_len) return bad("truncated header");
  std::string header = raw.substr(offset, header_len);
  std::string descr = header_field(header, "descr");
  auto dtype = dtype_for(descr);
  if (!dtype) return bad("dtype '" + descr + "'");
  if (header_field(header, "fortran_order") != "False") return bad("Fortran order");
  Shape shape;
  std::string shape_text = header_field(header, "shape");
  for (const auto& part : split(shape_text.substr(1, shape_text.size() - 2), ',')) {
    auto p = trim(part);
    if (p.empty()) continue;
    int64_t d = -1;
    auto [ptr, ec] = std::from_chars(p.data(), p.data() + p.size(), d);
    if (ec != std::errc() || ptr != p.data() + p.size() || d < 0) return bad("shape " + shape_text);
    shape.push_back(d);
  }
  Tensor t = Tensor::zeros(*dtype, shape);
  size_t data_offset = offset + header_len;
  if (raw.size() - data_offset != t.nbytes()) {
    return bad("expected " + std::to_string(t.nbytes()) + " data bytes, found " +
               std::to_string(raw.size() - data_offset));
  }
  std::memcpy(t.mutable_data(), raw.data() + data_offset, t.nbytes());
  return t;
}

}  // namespace pf
