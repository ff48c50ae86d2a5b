// The output digest (evaluator/core/tensor_digest.h through
// protocol::tensor_digest): fixed vectors computed by an independent
// implementation of the same definition (Python, the arithmetic written out
// from the header's comment), sensitivity to every single bit of every
// element, NaN payloads, the key, the dtype and the element count. The device
// twin is checked against this one in tests/unit/gpu/tensor_checks_gpu_test.cpp.
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "evaluator/protocol/integrity_checks.h"

namespace pf::protocol {
namespace {

constexpr uint64_t kKey = 0x0123456789abcdefULL;

// A tensor holding exactly `bits` (little-endian, dtype_size bytes each).
Tensor from_bits(DType dtype, const std::vector<uint64_t>& bits) {
  Tensor t = Tensor::zeros(dtype, {static_cast<int64_t>(bits.size())});
  const size_t es = dtype_size(dtype);
  for (size_t i = 0; i < bits.size(); ++i) std::memcpy(t.mutable_data() + i * es, &bits[i], es);
  return t;
}

TEST(TensorDigest, FixedVectors) {
  // float32 1.0, -2.5 and the default quiet NaN.
  EXPECT_EQ(tensor_digest(from_bits(DType::float32, {0x3f800000, 0xc0200000, 0x7fc00000}), kKey),
            0x1fb92a8f701c13ddULL);
  // The same with a NaN of another payload.
  EXPECT_EQ(tensor_digest(from_bits(DType::float32, {0x3f800000, 0xc0200000, 0x7fc00001}), kKey),
            0xd3e173d68f97c14fULL);
  EXPECT_EQ(tensor_digest(from_bits(DType::int8, {1, 0xff, 3}), kKey), 0x81e45efc6c41aec0ULL);
  EXPECT_EQ(tensor_digest(from_bits(DType::int64, {~uint64_t{6}, uint64_t{1} << 40}), kKey),
            0x0938982425c23bebULL);
  EXPECT_EQ(tensor_digest(from_bits(DType::float16, {0x3c00, 0x7e00}), kKey),
            0x443ab983df9db784ULL);
  EXPECT_EQ(tensor_digest(Tensor::zeros(DType::float32, {0}), kKey), 0xd583f8de10aad6d1ULL);
}

TEST(TensorDigest, EverySingleBitFlipChangesIt) {
  for (DType dt : {DType::boolean, DType::int16, DType::bfloat16, DType::float32, DType::float64}) {
    const size_t es = dtype_size(dt);
    std::vector<uint64_t> bits = {0x0123456789abcdefULL, 0, 0x8000000000000000ULL, 42, 7};
    for (auto& b : bits) b &= es == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * es)) - 1;
    const Tensor base = from_bits(dt, bits);
    const uint64_t d = tensor_digest(base, kKey);
    std::set<uint64_t> seen = {d};
    for (size_t i = 0; i < bits.size(); ++i) {
      for (size_t bit = 0; bit < 8 * es; ++bit) {
        auto flipped = bits;
        flipped[i] ^= uint64_t{1} << bit;
        const uint64_t f = tensor_digest(from_bits(dt, flipped), kKey);
        EXPECT_NE(f, d) << dtype_name(dt) << " element " << i << " bit " << bit;
        seen.insert(f);
      }
    }
    // Every flip gives its own digest: no two positions collide.
    EXPECT_EQ(seen.size(), 1 + bits.size() * 8 * es) << dtype_name(dt);
  }
}

TEST(TensorDigest, NanPayloadsAndSignedZerosAreBits) {
  // Equal as values (or both NaN), different bits: different digests, as
  // bitwise_equal says.
  const Tensor quiet = from_bits(DType::float64, {0x7ff8000000000000ULL});
  const Tensor payload = from_bits(DType::float64, {0x7ff8000000000001ULL});
  const Tensor negative_nan = from_bits(DType::float64, {0xfff8000000000000ULL});
  EXPECT_NE(tensor_digest(quiet, kKey), tensor_digest(payload, kKey));
  EXPECT_NE(tensor_digest(quiet, kKey), tensor_digest(negative_nan, kKey));
  EXPECT_NE(tensor_digest(from_bits(DType::float32, {0}), kKey),
            tensor_digest(from_bits(DType::float32, {0x80000000}), kKey));
  // The same bits give the same digest.
  EXPECT_EQ(tensor_digest(payload, kKey),
            tensor_digest(from_bits(DType::float64, {0x7ff8000000000001ULL}), kKey));
}

TEST(TensorDigest, KeyDtypeCountAndOrderMatter) {
  const Tensor t = from_bits(DType::int32, {1, 2, 3, 4});
  EXPECT_NE(tensor_digest(t, kKey), tensor_digest(t, kKey + 1));
  // The same bytes as another dtype, and one more zero element.
  EXPECT_NE(tensor_digest(t, kKey), tensor_digest(from_bits(DType::float32, {1, 2, 3, 4}), kKey));
  EXPECT_NE(tensor_digest(t, kKey), tensor_digest(from_bits(DType::int32, {1, 2, 3, 4, 0}), kKey));
  // Two elements swapped: positions are part of each term.
  EXPECT_NE(tensor_digest(t, kKey), tensor_digest(from_bits(DType::int32, {2, 1, 3, 4}), kKey));
  // An all-zero tensor's digest is not a fixed value: it depends on the key.
  const Tensor zeros = Tensor::zeros(DType::float32, {1024});
  EXPECT_NE(tensor_digest(zeros, kKey), tensor_digest(zeros, ~kKey));
}

TEST(TensorDigest, StridedViewsDigestTheirLogicalElements) {
  const Tensor t = from_bits(DType::int32, {1, 2, 3, 4, 5, 6});
  const Tensor matrix = Tensor::view_of(t, {2, 3}, {3, 1}, 0);
  const Tensor transposed = Tensor::view_of(t, {3, 2}, {1, 3}, 0);
  EXPECT_EQ(tensor_digest(matrix, kKey), tensor_digest(t, kKey));
  EXPECT_EQ(tensor_digest(transposed, kKey),
            tensor_digest(from_bits(DType::int32, {1, 4, 2, 5, 3, 6}), kKey));
}

}  // namespace
}  // namespace pf::protocol
