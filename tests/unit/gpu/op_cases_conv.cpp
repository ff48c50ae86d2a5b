// Cases of the convolution, attention, scan and einsum families
// (ops_conv.cpp, ops_attention.cpp, ops_scan.cpp, ops_einsum.cpp). Values in [-1, 1] keep fp32 sums
// within the t = -5 tolerance. On the GPU the convolutions run through cuDNN when it loads
// (depthwise ones through the direct kernel, as PyTorch), else all direct.
#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {
namespace {

// NOLINTNEXTLINE(readability-identifier-naming): reads as the cases' own `F.`
const std::string F = "torch.nn.functional.";

CaseInput unit(Shape shape) {
  return in(std::move(shape), -1, 1);
}

}  // namespace

void add_conv_cases(std::vector<OpCase>& c) {
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, 2, 1)",
               {unit({2, 3, 11, 9}), unit({8, 3, 3, 3}), unit({8})},
               kFloat});
  c.push_back({"conv2d",
               "x, w",
               F + "conv2d(x, w, None, 1, 2, 2, 2)",
               {unit({1, 4, 10, 10}), unit({6, 2, 3, 3})},
               kFloat});
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, padding='same')",
               {unit({2, 3, 7, 8}), unit({4, 3, 4, 2}), unit({4})},
               kFloat});
  c.push_back({"conv2d",
               "x, w",
               F + "conv2d(x, w, stride=(1, 2), padding='valid')",
               {unit({3, 5, 6}), unit({2, 3, 1, 3})},
               kFloat});
  // Depthwise: PyTorch's depthwise kernel (fp16 with >= 32 channels: cuDNN).
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, 1, 1, 1, 8)",
               {unit({2, 8, 9, 9}), unit({8, 1, 3, 3}), unit({8})},
               kFloat});
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, 2, 3, groups=32)",
               {unit({1, 32, 12, 12}), unit({64, 1, 7, 7}), unit({64})},
               kFloat});
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, 2, 2, 1, 16)",
               {unit({2, 16, 13, 11}), unit({16, 1, 5, 5}), unit({16})},
               kFloat});
  c.push_back({"conv2d",
               "x, w",
               F + "conv2d(x, w, None, 2, 2, 2, 6)",
               {unit({1, 6, 15, 14}), unit({6, 1, 3, 3})},
               kFloat});
  // Depthwise with one row of outputs per thread blocked (pf_conv_dw_*):
  // widths 3/5/7 at width stride 1/2 and dilation 1/2 (3: the direct
  // kernel), any height geometry (stride, padding,
  // dilation, rectangular kernels), widths not a multiple of the block,
  // fewer outputs in a row than one block, batches, conv1d.
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, 1, 3, 1, 12)",
               {unit({2, 12, 15, 13}), unit({12, 1, 7, 7}), unit({12})},
               kFloat});
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, 1, 1, 1, 16)",
               {unit({3, 16, 11, 17}), unit({16, 1, 3, 3}), unit({16})},
               kFloat});
  c.push_back({"conv2d",
               "x, w",
               F + "conv2d(x, w, None, 2, 2, 1, 10)",
               {unit({2, 10, 13, 15}), unit({10, 1, 5, 5})},
               kFloat});
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, (1, 2), (0, 3), 1, 8)",
               {unit({1, 8, 9, 23}), unit({8, 1, 7, 7}), unit({8})},
               kFloat});
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, (2, 1), (2, 1), (2, 1), 6)",
               {unit({2, 6, 10, 9}), unit({6, 1, 3, 3}), unit({6})},
               kFloat});
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, 1, (1, 2), 1, 4)",
               {unit({2, 4, 6, 11}), unit({8, 1, 3, 5}), unit({8})},
               kFloat});
  c.push_back({"conv2d",
               "x, w",
               F + "conv2d(x, w, None, 1, 1, 1, 4)",
               {unit({1, 4, 5, 2}), unit({4, 1, 3, 3})},
               kFloat});
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, 2, 1, 1, 8)",
               {unit({1, 8, 7, 37}), unit({8, 1, 3, 3}), unit({8})},
               kFloat});
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, 1, 3, 1, 48)",
               {unit({1, 48, 14, 14}), unit({48, 1, 7, 7}), unit({48})},
               kFloat});
  c.push_back({"conv2d",
               "x, w",
               F + "conv2d(x, w, None, 1, 4, 2, 12)",
               {unit({2, 12, 9, 19}), unit({12, 1, 5, 5})},
               kFloat});
  c.push_back({"conv2d",
               "x, w, b",
               F + "conv2d(x, w, b, 1, 3, 3, 5)",
               {unit({1, 5, 11, 13}), unit({5, 1, 3, 3}), unit({5})},
               kFloat});
  c.push_back({"conv1d",
               "x, w, b",
               F + "conv1d(x, w, b, 1, 1, 1, 6)",
               {unit({2, 6, 21}), unit({6, 1, 3}), unit({6})},
               kFloat});
  c.push_back({"conv1d",
               "x, w, b",
               F + "conv1d(x, w, b, 2, 2)",
               {unit({2, 4, 17}), unit({6, 4, 5}), unit({6})},
               kFloat});
  c.push_back({"conv1d",
               "x, w",
               F + "conv1d(x, w, padding='same', groups=6)",
               {unit({2, 6, 20}), unit({6, 1, 4})},
               kFloat});
  c.push_back(
      {"conv1d", "x, w", F + "conv1d(x, w, dilation=3)", {unit({4, 17}), unit({5, 4, 3})}, kFloat});
  c.push_back({"conv_transpose2d",
               "x, w, b",
               F + "conv_transpose2d(x, w, b, 2, 1, 1)",
               {unit({2, 4, 5, 6}), unit({4, 3, 3, 3}), unit({3})},
               kFloat});
  c.push_back({"conv_transpose2d",
               "x, w",
               F + "conv_transpose2d(x, w, None, 1, 0, 0, 2, 2)",
               {unit({1, 4, 5, 5}), unit({4, 2, 2, 2})},
               kFloat});
  c.push_back({"conv_transpose1d",
               "x, w, b",
               F + "conv_transpose1d(x, w, b, stride=2)",
               {unit({2, 6, 9}), unit({6, 3, 4}), unit({3})},
               kFloat});
  // 3-d: cuDNN's N-d descriptors over 5-d tensors; depthwise through the
  // direct kernel (PyTorch's conv_depthwise3d).
  c.push_back({"conv3d",
               "x, w, b",
               F + "conv3d(x, w, b, (1, 2, 1), (1, 0, 2), (1, 1, 2))",
               {unit({2, 3, 6, 9, 8}), unit({8, 3, 3, 3, 3}), unit({8})},
               kFloat});
  c.push_back({"conv3d",
               "x, w",
               F + "conv3d(x, w, padding='same', groups=2)",
               {unit({1, 4, 5, 6, 7}), unit({6, 2, 2, 3, 4})},
               kFloat});
  c.push_back({"conv3d",
               "x, w, b",
               F + "conv3d(x, w, b, 1, 1, groups=4)",
               {unit({2, 4, 5, 5, 6}), unit({8, 1, 3, 3, 3}), unit({8})},
               kFloat});
  c.push_back({"conv3d",
               "x, w",
               F + "conv3d(x, w, stride=(2, 2, 2), padding='valid')",
               {unit({3, 6, 7, 8}), unit({5, 3, 2, 2, 2})},
               kFloat});
  c.push_back({"conv_transpose3d",
               "x, w, b",
               F + "conv_transpose3d(x, w, b, 2, 1, 1)",
               {unit({2, 4, 3, 4, 5}), unit({4, 3, 3, 3, 3}), unit({3})},
               kFloat});
  c.push_back({"conv_transpose3d",
               "x, w",
               F + "conv_transpose3d(x, w, None, (1, 2, 1), 0, 0, 2, (2, 1, 1))",
               {unit({1, 4, 3, 3, 4}), unit({4, 2, 2, 2, 2})},
               kFloat});
}

void add_attention_cases(std::vector<OpCase>& c) {
  const std::string sdpa = F + "scaled_dot_product_attention";
  c.push_back({"scaled_dot_product_attention",
               "q, k, v",
               sdpa + "(q, k, v)",
               {unit({2, 3, 7, 16}), unit({2, 3, 9, 16}), unit({2, 3, 9, 8})},
               kFloat});
  c.push_back({"scaled_dot_product_attention",
               "q, k, v",
               sdpa + "(q, k, v, is_causal=True)",
               {unit({1, 2, 10, 32}), unit({1, 2, 10, 32}), unit({1, 2, 10, 32})},
               kFloat});
  c.push_back({"scaled_dot_product_attention",
               "q, k, v, m",
               sdpa + "(q, k, v, attn_mask=m)",
               {unit({2, 3, 7, 16}), unit({2, 3, 9, 16}), unit({2, 3, 9, 16}), typed('b', {7, 9})},
               kFloat});
  c.push_back({"scaled_dot_product_attention",
               "q, k, v, m",
               sdpa + "(q, k, v, m, scale=0.3)",
               {unit({2, 3, 5, 8}), unit({2, 3, 6, 8}), unit({2, 3, 6, 8}), unit({2, 1, 5, 6})},
               kFloat});
  c.push_back({"scaled_dot_product_attention",
               "q, k, v",
               sdpa + "(q, k, v, enable_gqa=True)",
               {unit({1, 4, 5, 8}), unit({1, 2, 6, 8}), unit({1, 2, 6, 8})},
               kFloat});
  c.push_back({"scaled_dot_product_attention",
               "q, k, v",
               sdpa + "(q, k, v)",
               {unit({1, 2, 70, 64}), unit({3, 1, 70, 64}), unit({3, 1, 70, 64})},
               kFloat});
}

void add_scan_cases(std::vector<OpCase>& c) {
  c.push_back({"cumsum", "x", "torch.cumsum(x, 1)", {in({7, 45})}, kNum});
  c.push_back({"cumsum", "x", "x.cumsum(0)", {in({9, 5, 6})}, kInt});
  c.push_back({"cumsum", "x", "torch.cumsum(x, -1, dtype=torch.float64)", {in({4, 70})}, kFloat});
  c.push_back({"cumprod", "x", "torch.cumprod(x, 1)", {in({5, 12}, 0.5, 1.5, -2, 2)}, kNum});
  c.push_back({"cumprod", "x", "torch.cumprod(x, 1)", {in({3, 40, 2}, 0.8, 1.2, -1, 1)}, kFloat});
}

void add_einsum_cases(std::vector<OpCase>& c) {
  c.push_back(
      {"einsum", "x, y", "torch.einsum('ij,jk->ik', x, y)", {unit({7, 9}), unit({9, 5})}, kFloat});
  c.push_back({"einsum",
               "x, y",
               "torch.einsum('bhld,bhsd->bhls', x, y)",
               {unit({2, 3, 5, 8}), unit({2, 3, 6, 8})},
               kFloat});
  c.push_back({"einsum",
               "x, y",
               "torch.einsum('...ij,jk', x, y)",
               {unit({3, 4, 6}), unit({6, 2})},
               kFloat});
  c.push_back({"einsum", "x, y", "torch.einsum('i,j->ij', x, y)", {unit({7}), unit({5})}, kFloat});
  c.push_back({"einsum", "x", "torch.einsum('ii->i', x) * 1", {unit({6, 6})}, kFloat});
  c.push_back({"einsum", "x", "torch.einsum('ijk->kj', x)", {unit({4, 5, 3})}, kFloat});
  c.push_back({"einsum",
               "x, y, z",
               "torch.einsum('ab,bc,cd->ad', x, y, z)",
               {unit({4, 5}), unit({5, 6}), unit({6, 3})},
               kFloat});
  c.push_back({"einsum",
               "x, y",
               "torch.einsum('bij,bj->bi', x, y)",
               {unit({3, 4, 5}), unit({1, 5})},
               kFloat});
}

}  // namespace pf::gpu::test
