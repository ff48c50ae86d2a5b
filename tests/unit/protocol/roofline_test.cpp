// Roofline floors err low: only input bytes some op reads in full count
// (views pass through, gathers count nothing), only outputs an op computes,
// and only matmul-like flops.
#include "evaluator/protocol/roofline.h"

#include <gtest/gtest.h>

#include "tests/unit/passes/pass_test_util.h"

namespace pf::protocol {
namespace {

using passes::test::typed_graph;

const OpRegistry& reg() {
  return OpRegistry::builtin();
}

TEST(Roofline, ElementwiseReadsEveryInput) {
  Graph g = typed_graph("def forward(in_0, in_1):\n    t = in_0 + in_1\n    return (t,)\n",
                        {{DType::float32, {256, 256}}, {DType::float16, {256, 256}}});
  DevicePeaks peaks{1e12, 0};
  RooflineFloor f = roofline_floor(g, reg(), peaks);
  EXPECT_EQ(f.bytes, 256 * 256 * (4 + 2));
  EXPECT_EQ(f.write_bytes, 256 * 256 * 4);  // float32 + float16 -> float32
  EXPECT_EQ(f.flops, 0);
  EXPECT_DOUBLE_EQ(f.memory_floor_ms, static_cast<double>(f.bytes + f.write_bytes) / 1e12 * 1e3);
  EXPECT_DOUBLE_EQ(f.compute_floor_ms, 0);
  EXPECT_DOUBLE_EQ(f.floor_ms(), f.memory_floor_ms);
}

TEST(Roofline, ViewsPassThroughAndSlicesCountWhatIsRead) {
  // The reshape passes its reader's count through; the slice reads half.
  Graph g = typed_graph(
      "def forward(in_0):\n    a = in_0.reshape(8, 8)\n    b = a * 2.0\n"
      "    c = in_0[:32]\n    return (b, c)\n",
      {{DType::float32, {64}}});
  RooflineFloor f = roofline_floor(g, reg(), {1e12, 0});
  EXPECT_EQ(f.bytes, 64 * 4);
  // b is computed; c is a view of the input (it may alias it): no write.
  EXPECT_EQ(f.write_bytes, 64 * 4);
}

// A kernel that, in the trials nobody checks, reads its old output and
// returns moves only the output's bytes. On sigmoid(x) * y with 64 MiB
// tensors on an H200 (50 MiB L2) that is below half the floor (two inputs
// read, the output's bytes beyond the L2 written), while an honest kernel at
// 90% of peak bandwidth is above it. Counting reads alone it would sit at
// exactly 0.5: not caught.
TEST(Roofline, AKernelThatOnlyReadsItsOutputIsImplausiblyFast) {
  Graph g = typed_graph(
      "def forward(in_0, in_1):\n    t = torch.sigmoid(in_0)\n    u = t * in_1\n    return (u,)\n",
      {{DType::float32, {4096, 4096}}, {DType::float32, {4096, 4096}}});
  const DevicePeaks h200{4.8e12, 0, 50 << 20};
  RooflineFloor f = roofline_floor(g, reg(), h200);
  const double out_bytes = 4096.0 * 4096 * 4;
  EXPECT_EQ(f.bytes, 2 * out_bytes);
  EXPECT_EQ(f.write_bytes, out_bytes - (50 << 20));
  const double read_output_only_ms = out_bytes / h200.memory_bytes_per_s * 1e3;
  const double honest_ms = 3 * out_bytes / (0.9 * h200.memory_bytes_per_s) * 1e3;
  EXPECT_TRUE(implausibly_fast(read_output_only_ms, f, 0.5));
  EXPECT_FALSE(implausibly_fast(honest_ms, f, 0.5));
  RooflineFloor reads_only = f;
  reads_only.memory_floor_ms = static_cast<double>(f.bytes) / h200.memory_bytes_per_s * 1e3;
  EXPECT_FALSE(implausibly_fast(read_output_only_ms, reads_only, 0.5));
  EXPECT_FALSE(implausibly_fast(1.0, RooflineFloor{}, 0.5)) << "no floor, no flag";
  // Outputs that fit in the L2 add nothing.
  Graph small = typed_graph("def forward(in_0):\n    t = torch.sigmoid(in_0)\n    return (t,)\n",
                            {{DType::float32, {1024, 1024}}});
  EXPECT_EQ(roofline_floor(small, reg(), h200).write_bytes, 0);
}

TEST(Roofline, GathersCountNothingAndMatmulsCountFlops) {
  Graph g = typed_graph(
      "def forward(in_0, in_1, in_2):\n    e = torch.nn.functional.embedding(in_0, in_1)\n"
      "    m = torch.matmul(e, in_2)\n    return (m,)\n",
      {{DType::int64, {4, 8}}, {DType::float32, {1000, 64}}, {DType::float32, {64, 16}}});
  RooflineFloor f = roofline_floor(g, reg(), {1e12, 1e15});
  // Only the matmul's right operand counts: embedding reads part of its table
  // and (erring low) its indices count nothing either.
  EXPECT_EQ(f.bytes, 64 * 16 * 4);
  EXPECT_EQ(f.write_bytes, 4 * 8 * 16 * 4);
  EXPECT_DOUBLE_EQ(f.flops, 2.0 * (4 * 8 * 16) * 64);
  EXPECT_DOUBLE_EQ(f.compute_floor_ms, f.flops / 1e15 * 1e3);
}

TEST(Roofline, DevicePeaksBoundTheH200FromAbove) {
  // H200: 132 SMs at 1.98 GHz, 4.8 TB/s; dense fp16 tensor peak ~ 989 TFLOP/s.
  DevicePeaks p = device_peaks(132, 1'980'000, 4.8e12);
  EXPECT_DOUBLE_EQ(p.memory_bytes_per_s, 4.8e12);
  EXPECT_GT(p.flops_per_s, 1.9e15);
  EXPECT_LT(p.flops_per_s, 2.5e15);
  EXPECT_EQ(device_peaks(0, 0, 0).flops_per_s, 0);
}

TEST(Roofline, JsonInMicroseconds) {
  RooflineFloor f;
  f.bytes = 10;
  f.memory_floor_ms = 0.002;
  auto j = f.to_json();
  EXPECT_EQ(j["bytes"], 10);
  EXPECT_DOUBLE_EQ(j["memory_floor_us"].get<double>(), 2.0);
}

}  // namespace
}  // namespace pf::protocol
