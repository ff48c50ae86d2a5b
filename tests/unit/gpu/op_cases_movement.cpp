// Cases of the data-movement families: layout copies, indexing, pooling and
// interpolation (ops_layout.cpp ... ops_interpolate.cpp). Index inputs are
// int64 ('l') in range; scatter indices are built in the graph so that no
// two writes land on one element (assignment order is unspecified there).
#include "tests/unit/gpu/op_cases.h"

namespace pf::gpu::test {
namespace {

// NOLINTNEXTLINE(readability-identifier-naming): reads as the cases' own `F.`
const std::string F = "torch.nn.functional.";

// [rows, cols] int64 indices whose columns hold distinct values below `n`.
std::string distinct_index(int rows, int cols, int n) {
  return "i = (torch.arange(" + std::to_string(rows) + ").unsqueeze(1) + torch.arange(" +
         std::to_string(cols) + ").unsqueeze(0)) % " + std::to_string(n) + "\n    ";
}

}  // namespace

void add_layout_cases(std::vector<OpCase>& c) {
  // Contiguous inputs of one dtype: the batched cat kernel (vectorised when
  // aligned); the layouts of input 0 also exercise the per-input copies.
  c.push_back({"cat",
               "x, y, z",
               "torch.cat([x, y, z], 1)",
               {in({6, 5, 8}), in({6, 3, 8}), in({6, 7, 8})},
               kAll});
  c.push_back({"cat", "x, y", "torch.cat((x, y), dim=-1)", {in({9, 13}), in({9, 2})}, kAll});
  c.push_back({"cat", "x, y", "torch.cat([x, y])", {in({4, 16}), typed('f', {3, 16})}, kNum});
  c.push_back({"stack", "x, y", "torch.stack([x, y], 1)", {in({5, 7}), in({5, 7})}, kAll});
  c.push_back(
      {"stack", "x, y", "torch.stack((x, y), dim=-1)", {in({3, 4, 9}), in({3, 4, 9})}, kNum});
  // Non-contiguous inputs (views): the strided batched cat kernel, dims
  // from 2 to 4, any mix with contiguous inputs, an empty input among them,
  // more than one launch's worth of inputs; a 5-d output: per-input copies.
  c.push_back(
      {"cat", "x, y", "torch.cat((x.transpose(0, 1), y), 1)", {in({5, 7}), in({7, 3})}, kAll});
  c.push_back({"cat",
               "x",
               "t = x.transpose(1, 2)\n    return (torch.cat((t, t), dim=-1),)",
               {in({2, 8, 19})},
               kAll});
  c.push_back({"cat",
               "x, y",
               "torch.cat((y, x.permute(0, 2, 3, 1)), dim=-1)",
               {in({2, 6, 5, 7}), in({2, 5, 7, 4})},
               kAll});
  c.push_back({"cat",
               "x, y, z",
               "torch.cat((x[:, 1:4], y[::2], z.t()), 0)",
               {in({5, 9}), in({8, 3}), in({3, 6})},
               kAll});
  c.push_back({"cat",
               "x, y, z",
               "torch.cat((x.t(), y[:, :0], z[:, ::3]), 1)",
               {in({4, 6}), in({6, 5}), in({6, 7})},
               kAll});
  c.push_back({"cat", "x", "torch.cat(torch.unbind(x, 1), 0)", {in({3, 70, 2})}, kAll});
  c.push_back({"cat",
               "x, y",
               "torch.cat((x.transpose(0, 4), y), 2)",
               {in({3, 2, 2, 2, 2}), in({2, 2, 1, 2, 3})},
               kAll});
  c.push_back({"stack", "x, y", "torch.stack((x.t(), y.t()), 1)", {in({5, 7}), in({5, 7})}, kAll});
  c.push_back({"stack",
               "x, y",
               "torch.stack((x.permute(2, 0, 1), y[:, :, 1:]), 2)",
               {in({3, 4, 5}), in({5, 3, 5})},
               kAll});
  c.push_back({"pad", "x", F + "pad(x, (1, 2, 3, 0), value=1.5)", {in({4, 6, 7})}, kNum});
  c.push_back({"pad", "x", F + "pad(x, (-1, 2))", {in({5, 9})}, kAll});
  c.push_back({"pad", "x", F + "pad(x, (2, 3, 1, 1), mode='reflect')", {in({2, 5, 6})}, kFloat});
  c.push_back({"pad", "x", F + "pad(x, (2, 3, 1, 1), mode='replicate')", {in({2, 5, 6})}, kFloat});
  c.push_back({"pad", "x", F + "pad(x, (2, 1), mode='circular')", {in({2, 3, 6})}, kFloat});
  c.push_back({"roll", "x", "torch.roll(x, 3, 1)", {in({5, 11})}, kAll});
  c.push_back({"roll", "x", "torch.roll(x, (-2, 5), (0, 2))", {in({6, 3, 7})}, kNum});
  c.push_back({"roll", "x", "torch.roll(x, 7)", {in({4, 9})}, kNum});
  c.push_back({"flip", "x", "torch.flip(x, [0, 2])", {in({4, 5, 6})}, kAll});
  // Rows of a multiple of 16 bytes move in 16-byte units (pf_remap_vec).
  c.push_back({"roll", "x", "torch.roll(x, (3, -1), (1, 2))", {in({2, 7, 5, 16})}, kAll});
  c.push_back({"pad", "x", F + "pad(x, (0, 0, 2, 1), mode='reflect')", {in({2, 6, 16})}, kFloat});
  c.push_back({"flip", "x", "torch.flip(x, [1])", {in({3, 4, 32})}, kAll});
  c.push_back({"contiguous", "x", "x[:, 1:4, 8:].contiguous()", {in({3, 6, 40})}, kAll});
  c.push_back({"contiguous", "x", "x.transpose(1, 2).contiguous()", {in({2, 5, 3, 16})}, kAll});
  c.push_back({"repeat", "x", "x.repeat(2, 1, 3)", {in({5, 7})}, kAll});
  c.push_back({"tile", "x", "torch.tile(x, (3,))", {in({4, 6})}, kNum});
  c.push_back({"repeat_interleave", "x", "torch.repeat_interleave(x, 3, 1)", {in({5, 7})}, kAll});
  c.push_back({"repeat_interleave", "x", "x.repeat_interleave(2)", {in({4, 6})}, kNum});
}

void add_index_cases(std::vector<OpCase>& c) {
  c.push_back({"index_select",
               "x, i",
               "torch.index_select(x, 1, i)",
               {in({6, 9, 5}), typed('l', {12}, 0, 0, 0, 8)},
               kAll});
  // Whole rows (16-byte multiples for 2-byte and wider dtypes): pf_index_rows.
  c.push_back({"index_select",
               "x, i",
               "torch.index_select(x, 0, i)",
               {in({9, 24}), typed('l', {13}, 0, 0, 0, 8)},
               kAll});
  c.push_back({"gather",
               "x, i",
               "torch.gather(x, 1, i)",
               {in({6, 9}), typed('l', {6, 14}, 0, 0, 0, 8)},
               kAll});
  c.push_back({"gather",
               "x, i",
               "torch.gather(x, 0, i)",
               {in({7, 5, 3}), typed('l', {4, 5, 2}, 0, 0, 0, 6)},
               kNum});
  c.push_back({"take_along_dim",
               "x, i",
               "torch.take_along_dim(x, i, dim=1)",
               {in({6, 9, 1}), typed('l', {1, 14, 5}, 0, 0, 0, 8)},
               kAll});
  c.push_back({"take_along_dim",
               "x, i",
               "torch.take_along_dim(x, i)",
               {in({6, 9}), typed('l', {20}, 0, 0, 0, 53)},
               kNum});
  // index_fill wraps negative indices; index_add's duplicates accumulate.
  c.push_back({"index_fill",
               "x, i",
               "x.index_fill(1, i, -1.5)",
               {in({6, 9, 5}), typed('l', {4}, 0, 0, -9, 8)},
               kFloat});
  c.push_back({"index_fill",
               "x, i, v",
               "x.index_fill(0, i, v)",
               {in({6, 9}), typed('l', {3}, 0, 0, 0, 5), in({})},
               kAll});
  c.push_back({"index_add",
               "x, i, s",
               "x.index_add(1, i, s, alpha=2)",
               {in({6, 9}), typed('l', {12}, 0, 0, 0, 8), in({6, 12})},
               kFloat});
  c.push_back({"index_add",
               "x, i, s",
               "torch.index_add(x, 0, i, s)",
               {in({7, 5}), typed('l', {3}, 0, 0, 0, 6), in({3, 5})},
               kNum});
  c.push_back({"embedding",
               "i, w",
               F + "embedding(i, w)",
               {typed('l', {4, 9}, 0, 0, 0, 29), in({30, 16})},
               kFloat});
  c.push_back({"embedding",
               "i, w",
               F + "embedding(i, w, padding_idx=0)",
               {typed('l', {7}, 0, 0, 0, 10), in({11, 5})},
               kNum});
  c.push_back({"scatter",
               "x, s",
               distinct_index(3, 6, 5) + "return (torch.scatter(x, 0, i, s),)",
               {in({5, 6}), in({3, 6})},
               kAll});
  c.push_back({"scatter",
               "x",
               distinct_index(4, 3, 7) + "return (x.scatter(1, i, 2.5),)",
               {in({4, 7})},
               kFloat});
  c.push_back({"scatter_add",
               "x, s, i",
               "torch.scatter_add(x, 0, i, s)",
               {in({5, 6}), in({4, 6}), typed('l', {4, 6}, 0, 0, 0, 4)},
               kNum});
  c.push_back({"scatter_add",
               "x, s, i",
               "x.scatter_add(1, i, s)",
               {in({3, 50}, -1, 1), in({3, 200}, -1, 1), typed('l', {3, 200}, 0, 0, 0, 49)},
               kFloat});
  // one_hot: composed of unsqueeze, arange, eq and a cast to int64.
  c.push_back({"one_hot",
               "x, i",
               "x * 0 + " + F + "one_hot(i, 7)",
               {in({5, 3, 7}), typed('l', {5, 3}, 0, 0, 0, 6)},
               {DType::int64}});
  c.push_back({"getitem", "x, i", "x[i]", {in({9, 4}), typed('l', {5}, 0, 0, -9, 8)}, kAll});
  c.push_back(
      {"getitem", "x, i", "x[:, i] * 1", {in({3, 9, 4}), typed('l', {2, 3}, 0, 0, 0, 8)}, kNum});
  c.push_back({"getitem",
               "x, i, j",
               "x[i, 1:, j]",
               {in({6, 5, 7}), typed('l', {4, 1}, 0, 0, 0, 5), typed('l', {3}, 0, 0, -7, 6)},
               kNum});
  c.push_back({"getitem", "x", "x[[0, 2, 2], ::2]", {in({4, 9})}, kAll});
}

void add_pool_cases(std::vector<OpCase>& c) {
  c.push_back({"max_pool2d", "x", F + "max_pool2d(x, 3, 2, 1)", {in({2, 3, 13, 11})}, kFloat});
  c.push_back({"max_pool2d",
               "x",
               F + "max_pool2d(x, kernel_size=2, stride=2, ceil_mode=True)",
               {in({2, 4, 9, 7})},
               kFloat});
  c.push_back(
      {"max_pool2d", "x", F + "max_pool2d(x, 3, 1, 1, dilation=2)", {in({1, 2, 10, 12})}, kFloat});
  c.push_back({"max_pool1d", "x", F + "max_pool1d(x, 3, 2, 1)", {in({2, 5, 17})}, kFloat});
  // return_indices=True: the argmax the kernel writes becomes an output.
  c.push_back({"max_pool2d_with_indices",
               "x",
               "v = " + F + "max_pool2d(x, 3, 2, 1, return_indices=True)\n    return (v[0], v[1])",
               {in({2, 3, 13, 11})},
               kFloat});
  c.push_back({"max_pool1d_with_indices",
               "x",
               "v, i = " + F + "max_pool1d(x, 3, 2, 1, 1, False, True)\n    return (v, i)",
               {in({2, 5, 17})},
               kFloat});
  c.push_back(
      {"max_pool3d_with_indices",
       "x",
       "v = " + F + "max_pool3d_with_indices(x, 3, 2, 1, ceil_mode=True)\n    return (v[1],)",
       {in({2, 3, 7, 9, 8})},
       kFloat});
  c.push_back({"avg_pool2d", "x", F + "avg_pool2d(x, 3, 2, 1)", {in({2, 3, 13, 11})}, kFloat});
  c.push_back({"avg_pool2d",
               "x",
               F + "avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False)",
               {in({2, 3, 10, 9})},
               kFloat});
  c.push_back(
      {"avg_pool2d", "x", F + "avg_pool2d(x, 2, divisor_override=3)", {in({1, 2, 8, 8})}, kFloat});
  c.push_back({"avg_pool1d", "x", F + "avg_pool1d(x, 4, 3, 2)", {in({2, 3, 19})}, kFloat});
  c.push_back({"adaptive_avg_pool2d",
               "x",
               F + "adaptive_avg_pool2d(x, (5, 3))",
               {in({2, 3, 13, 11})},
               kFloat});
  c.push_back(
      {"adaptive_avg_pool2d", "x", F + "adaptive_avg_pool2d(x, 1)", {in({2, 16, 7, 7})}, kFloat});
  c.push_back(
      {"adaptive_avg_pool1d", "x", F + "adaptive_avg_pool1d(x, 6)", {in({2, 3, 17})}, kFloat});
  c.push_back({"adaptive_max_pool2d",
               "x",
               F + "adaptive_max_pool2d(x, (4, 6))",
               {in({2, 3, 9, 13})},
               kFloat});
  c.push_back(
      {"adaptive_max_pool1d", "x", F + "adaptive_max_pool1d(x, 5)", {in({2, 3, 16})}, kFloat});
  c.push_back({"adaptive_max_pool2d_with_indices",
               "x",
               "v = " + F + "adaptive_max_pool2d(x, (4, 6), True)\n    return (v[0], v[1])",
               {in({2, 3, 9, 13})},
               kFloat});
  c.push_back({"adaptive_max_pool1d_with_indices",
               "x",
               "v, i = " + F + "adaptive_max_pool1d(x, 5, return_indices=True)\n    return (i,)",
               {in({2, 3, 16})},
               kFloat});
  c.push_back(
      {"adaptive_max_pool3d_with_indices",
       "x",
       "v = " + F + "adaptive_max_pool3d_with_indices(x, (2, 3, 2))\n    return (v[0], v[1])",
       {in({2, 3, 5, 7, 4})},
       kFloat});
  c.push_back({"max_pool3d", "x", F + "max_pool3d(x, 3, 2, 1)", {in({2, 3, 7, 9, 8})}, kFloat});
  c.push_back({"max_pool3d",
               "x",
               F + "max_pool3d(x, (2, 3, 2), (1, 2, 2), (1, 1, 0), dilation=(2, 1, 1), "
                   "ceil_mode=True)",
               {in({3, 6, 9, 7})},
               kFloat});
  c.push_back({"avg_pool3d", "x", F + "avg_pool3d(x, 3, 2, 1)", {in({2, 3, 7, 9, 8})}, kFloat});
  c.push_back({"avg_pool3d",
               "x",
               F + "avg_pool3d(x, 2, 2, 1, ceil_mode=True, count_include_pad=False)",
               {in({1, 2, 5, 7, 6})},
               kFloat});
  c.push_back({"avg_pool3d",
               "x",
               F + "avg_pool3d(x, 2, divisor_override=3)",
               {in({1, 2, 4, 6, 6})},
               kFloat});
  c.push_back({"adaptive_avg_pool3d",
               "x",
               F + "adaptive_avg_pool3d(x, (2, 5, 3))",
               {in({2, 3, 5, 13, 11})},
               kFloat});
  c.push_back(
      {"adaptive_avg_pool3d", "x", F + "adaptive_avg_pool3d(x, 1)", {in({2, 8, 4, 7, 7})}, kFloat});
  c.push_back({"adaptive_max_pool3d",
               "x",
               F + "adaptive_max_pool3d(x, (3, 4, None))",
               {in({2, 3, 7, 9, 5})},
               kFloat});
  // F.unfold / F.fold: im2col copies, col2im sums overlapping blocks.
  c.push_back({"im2col", "x", F + "unfold(x, 3, 1, 1, 2)", {in({2, 3, 9, 8})}, kFloat});
  c.push_back({"im2col",
               "x",
               F + "unfold(x, (2, 3), dilation=(2, 1), padding=(0, 1), stride=(1, 2))",
               {in({4, 7, 9})},
               kFloat});
  c.push_back({"col2im", "x", F + "fold(x, (9, 8), 3, 1, 1, 2)", {in({2, 27, 20})}, kFloat});
  c.push_back({"col2im",
               "x",
               F + "fold(x, (5, 9), (2, 3), dilation=(2, 1), padding=1, stride=1)",
               {in({12, 45})},
               kFloat});
}

void add_interpolate_cases(std::vector<OpCase>& c) {
  c.push_back({"affine_grid",
               "t",
               F + "affine_grid(t, [3, 2, 17, 29], align_corners=False)",
               {in({3, 2, 3})},
               kFloat});
  c.push_back({"affine_grid",
               "t",
               F + "affine_grid(t, [1, 1, 8, 8], align_corners=True)",
               {in({1, 2, 3})},
               kFloat});
  c.push_back({"interpolate",
               "x",
               F + "interpolate(x, scale_factor=2.0, mode='nearest')",
               {in({2, 3, 5, 7})},
               kFloat});
  c.push_back({"interpolate",
               "x",
               F + "interpolate(x, size=(9, 4), mode='nearest-exact')",
               {in({2, 3, 5, 7})},
               kFloat});
  c.push_back({"interpolate",
               "x",
               F + "interpolate(x, size=(11, 13), mode='bilinear')",
               {in({2, 3, 5, 7})},
               kFloat});
  c.push_back({"interpolate",
               "x",
               F + "interpolate(x, scale_factor=1.5, mode='bilinear', align_corners=True)",
               {in({1, 2, 6, 8})},
               kFloat});
  c.push_back(
      {"interpolate", "x", F + "interpolate(x, size=7, mode='linear')", {in({2, 3, 5})}, kFloat});
  c.push_back({"interpolate",
               "x",
               F + "interpolate(x, size=(10, 9), mode='bicubic')",
               {in({1, 3, 5, 6})},
               kFloat});
  c.push_back({"interpolate",
               "x",
               F + "interpolate(x, scale_factor=2, mode='bicubic', align_corners=True)",
               {in({1, 2, 4, 5})},
               kFloat});
  c.push_back({"interpolate",
               "x",
               F + "interpolate(x, size=(4, 3), mode='area')",
               {in({2, 3, 9, 7})},
               kFloat});
  // antialias=True: downscaling stretches the filter over several inputs;
  // upscaling keeps it at its own size.
  c.push_back({"interpolate",
               "x",
               F + "interpolate(x, size=(5, 4), mode='bilinear', antialias=True)",
               {in({2, 3, 17, 13})},
               kFloat});
  c.push_back({"interpolate",
               "x",
               F + "interpolate(x, scale_factor=0.37, mode='bicubic', antialias=True)",
               {in({1, 4, 20, 27})},
               kFloat});
  c.push_back({"interpolate",
               "x",
               F + "interpolate(x, size=(9, 7), mode='bicubic', align_corners=True, "
                   "antialias=True)",
               {in({2, 2, 5, 6})},
               kFloat});
}

}  // namespace pf::gpu::test
