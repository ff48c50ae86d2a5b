// Remaps (roll, flip, padding, strided copies) rewritten over 16-byte units:
// when the rewrite applies, every output byte comes from the same input byte
// (or the same fill byte) as the element-wise remap; when it does not, the
// parameters are untouched.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "evaluator/gpu/movement.h"
#include "evaluator/gpu/offset_calc.h"

namespace pf::gpu {
namespace {

struct Dim {
  int64_t size;
  int64_t in_stride;
  int mode = PF_REMAP_IDENTITY;
  int shift = 0;
};

// dims innermost first, as add_remap fills them.
PfRemapParams params(const std::vector<Dim>& dims, uint64_t in, uint64_t out, uint64_t fill = 0) {
  PfRemapParams p{};
  p.in = in;
  p.out = out;
  p.fill = fill;
  p.dims = static_cast<int>(dims.size());
  p.n = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    p.out_sizes[d] = make_divider(static_cast<uint32_t>(dims[d].size));
    p.in_sizes[d] = static_cast<int>(dims[d].size);
    p.in_strides[d] = dims[d].in_stride;
    p.modes[d] = dims[d].mode;
    p.shift[d] = dims[d].shift;
    p.n *= dims[d].size;
  }
  return p;
}

// The kernel's pf_remap_coord (layout.cu) for the modes used here.
int coord(int mode, int i, int n, int a) {
  int j = i - a;
  switch (mode) {
    case PF_REMAP_FLIP:
      return n - 1 - i;
    case PF_REMAP_SHIFT:
      return j < 0 ? j + n : (j >= n ? j - n : j);
    case PF_REMAP_CONSTANT:
      return (j < 0 || j >= n) ? -1 : j;
    default:
      return i;
  }
}

// For each output byte: the input byte it copies (relative to p.in), or -1
// for a fill byte. `unit` is the element (or 16-byte unit) size.
std::vector<int64_t> byte_sources(const PfRemapParams& p, int64_t unit) {
  std::vector<int64_t> out;
  for (uint32_t idx = 0; idx < static_cast<uint32_t>(p.n); ++idx) {
    uint32_t rem = idx;
    int64_t off = 0;
    bool inside = true;
    for (int d = 0; d < p.dims; ++d) {
      const uint32_t q = divide(p.out_sizes[d], rem);
      const int i = static_cast<int>(rem - q * p.out_sizes[d].divisor);
      rem = q;
      const int src = coord(p.modes[d], i, p.in_sizes[d], p.shift[d]);
      inside = inside && src >= 0;
      off += int64_t{src} * p.in_strides[d];
    }
    for (int64_t k = 0; k < unit; ++k) out.push_back(inside ? off * unit + k : -1);
  }
  return out;
}

TEST(RemapWiden, RollOfRowsMovesTheSameBytesIn16ByteUnits) {
  // roll(x, 3, dim=1) of a contiguous [5, 7, 8] float32 tensor.
  PfRemapParams p = params({{8, 1}, {7, 8, PF_REMAP_SHIFT, 3}, {5, 56}}, 1 << 20, 2 << 20);
  const auto before = byte_sources(p, 4);
  ASSERT_TRUE(widen_remap_to_16_bytes(p, 4));
  EXPECT_EQ(p.n, 5 * 7 * 2);
  EXPECT_EQ(p.out_sizes[0].divisor, 2u);
  EXPECT_EQ(p.in_strides[1], 2);
  EXPECT_EQ(p.in_strides[2], 14);
  EXPECT_EQ(byte_sources(p, 16), before);
}

TEST(RemapWiden, StridedSliceCopyOfHalvesMovesTheSameBytes) {
  // x[:, 1:4, :16] of a contiguous [3, 6, 24] float16 tensor, made contiguous.
  PfRemapParams p = params({{16, 1}, {3, 24}, {3, 144}}, (1 << 20) + 48, 2 << 20);
  const auto before = byte_sources(p, 2);
  ASSERT_TRUE(widen_remap_to_16_bytes(p, 2));
  EXPECT_EQ(byte_sources(p, 16), before);
}

TEST(RemapWiden, ConstantFillRepeatsTheElementPattern) {
  // A reflect-free pad shape: constant mode on dim 1 only.
  PfRemapParams h = params({{8, 1}, {4, 8, PF_REMAP_CONSTANT, 1}}, 1 << 20, 2 << 20, 0x3C00);
  ASSERT_TRUE(widen_remap_to_16_bytes(h, 2));
  EXPECT_EQ(h.fill, 0x3C003C003C003C00ull);
  PfRemapParams b = params({{32, 1}, {2, 32, PF_REMAP_CONSTANT, 1}}, 1 << 20, 2 << 20, 0x1AB);
  ASSERT_TRUE(widen_remap_to_16_bytes(b, 1));
  EXPECT_EQ(b.fill, 0xABABABABABABABABull) << "only the element's own byte repeats";
  PfRemapParams d =
      params({{2, 1}, {3, 2, PF_REMAP_CONSTANT, 1}}, 1 << 20, 2 << 20, 0x4000000000000000);
  ASSERT_TRUE(widen_remap_to_16_bytes(d, 8));
  EXPECT_EQ(d.fill, 0x4000000000000000ull);
}

TEST(RemapWiden, RemapsThatCannotMoveWholeUnitsStayElementWise) {
  const std::vector<PfRemapParams> cases = {
      params({{8, 1, PF_REMAP_FLIP}, {4, 8}}, 1 << 20, 2 << 20),  // innermost remapped
      params({{6, 1}, {4, 6}}, 1 << 20, 2 << 20),                 // 24-byte rows
      params({{8, 2}, {4, 16}}, 1 << 20, 2 << 20),                // innermost strided
      params({{8, 1}, {4, 10}}, 1 << 20, 2 << 20),                // rows 40 bytes apart
      params({{8, 1}, {4, 8}}, (1 << 20) + 4, 2 << 20),           // input misaligned
      params({{8, 1}, {4, 8}}, 1 << 20, (2 << 20) + 8),           // output misaligned
      params({}, 1 << 20, 2 << 20),                               // 0-d
  };
  for (const PfRemapParams& c : cases) {
    PfRemapParams p = c;
    EXPECT_FALSE(widen_remap_to_16_bytes(p, 4));
    EXPECT_EQ(std::memcmp(&p, &c, sizeof(p)), 0) << "parameters changed";
  }
}

}  // namespace
}  // namespace pf::gpu
