// F.pixel_shuffle, F.pixel_unshuffle and torch.channel_shuffle
// (nn.ChannelShuffle): pure data movement through shuffle_plan.h.
#include <string>

#include "evaluator/ops/layout_util.h"
#include "evaluator/ops/op_families.h"
#include "evaluator/ops/op_registry.h"
#include "evaluator/ops/shuffle_plan.h"

namespace pf {

Result<ShufflePlan> shuffle_plan(const ArgReader& a, const Shape& shape) {
  PF_ASSIGN(int64_t f, a.integer(1));
  const int64_t rank = static_cast<int64_t>(shape.size());
  const std::string& op = a.op();
  ShufflePlan p;
  if (op == "channel_shuffle") {
    if (rank < 3) {
      return layout::op_error(a,
                              "channel_shuffle expects input with > 2 dims, but got input "
                              "with sizes " +
                                  shape_str(shape));
    }
    if (f <= 0) return a.error(1, "Number of groups to divide channels in must be positive");
    if (shape[1] % f != 0) {
      return a.error(1, "Number of channels must be divisible by groups. Got " +
                            std::to_string(shape[1]) + " channels and " + std::to_string(f) +
                            " groups.");
    }
    // (N, C, *) -> (N, g, C/g, *) -> (N, C/g, g, *)
    p.split = {shape[0], f, shape[1] / f};
    p.perm = {0, 2, 1};
    for (int64_t d = 2; d < rank; ++d) {
      p.split.push_back(shape[d]);
      p.perm.push_back(d + 1);
    }
    p.out = shape;
    return p;
  }
  if (rank < 3) {
    return layout::op_error(a, op +
                                   " expects input to have at least 3 dimensions, but got input "
                                   "with " +
                                   std::to_string(rank) + " dimension(s)");
  }
  if (f <= 0) {
    return a.error(1, op + " expects a positive " +
                          (op == "pixel_shuffle" ? "upscale_factor" : "downscale_factor") +
                          ", but got " + std::to_string(f));
  }
  const int64_t c = shape[rank - 3], h = shape[rank - 2], w = shape[rank - 1];
  Shape batch(shape.begin(), shape.end() - 3);
  const auto nb = static_cast<int64_t>(batch.size());
  p.split = batch;
  p.out = batch;
  for (int64_t d = 0; d < nb; ++d) p.perm.push_back(d);
  if (op == "pixel_shuffle") {
    if (c % (f * f) != 0) {
      return a.error(1,
                     "pixel_shuffle expects its input's 'channel' dimension to be divisible "
                     "by the square of upscale_factor, but input.size(-3)=" +
                         std::to_string(c) + " is not divisible by " + std::to_string(f * f));
    }
    // (*, C, r, r, H, W) -> (*, C, H, r, W, r)
    p.split.insert(p.split.end(), {c / (f * f), f, f, h, w});
    for (int64_t d : {0, 3, 1, 4, 2}) p.perm.push_back(nb + d);
    p.out.insert(p.out.end(), {c / (f * f), h * f, w * f});
    return p;
  }
  if (h % f != 0 || w % f != 0) {
    const bool height = h % f != 0;
    return a.error(1, std::string("pixel_unshuffle expects ") + (height ? "height" : "width") +
                          " to be divisible by downscale_factor, but input.size(" +
                          (height ? "-2" : "-1") + ")=" + std::to_string(height ? h : w) +
                          " is not divisible by " + std::to_string(f));
  }
  // (*, C, H, r, W, r) -> (*, C, r, r, H, W)
  p.split.insert(p.split.end(), {c, h / f, f, w / f, f});
  for (int64_t d : {0, 2, 4, 1, 3}) p.perm.push_back(nb + d);
  p.out.insert(p.out.end(), {c * f * f, h / f, w / f});
  return p;
}

namespace {

using namespace layout;

OpInfo shuffle_op(std::string name, std::vector<std::string> aliases, std::string param,
                  std::string doc) {
  OpInfo op;
  op.name = std::move(name);
  op.aliases = std::move(aliases);
  op.params = {param_tensor("input"), param_int(std::move(param))};
  op.doc = std::move(doc);
  op.infer = [](const BoundArgs<TensorType>& a) -> Result<std::vector<TensorType>> {
    PF_ASSIGN(ShufflePlan p, shuffle_plan(a, a.tensor(0).shape));
    return std::vector<TensorType>{{a.tensor(0).dtype, p.out}};
  };
  op.cpu = [](const BoundArgs<Tensor>& a,
              const std::vector<TensorType>& out) -> Result<std::vector<Tensor>> {
    const Tensor& x = a.tensor(0);
    PF_ASSIGN(ShufflePlan p, shuffle_plan(a, x.shape()));
    Tensor src = reshape_tensor(x, p.split);
    Shape shape;
    Strides strides;
    for (int64_t d : p.perm) {
      shape.push_back(src.shape()[d]);
      strides.push_back(src.strides()[d]);
    }
    Tensor permuted = Tensor::view_of(src, shape, strides, src.offset());
    Tensor y = Tensor::zeros(x.dtype(), shape);
    copy_strided(permuted, y);
    return std::vector<Tensor>{
        Tensor::view_of(y, out[0].shape, contiguous_strides(out[0].shape), 0)};
  };
  return op;
}

}  // namespace

void register_shuffle_ops(OpRegistry& r) {
  r.add(shuffle_op("pixel_shuffle", {"torch.nn.functional.pixel_shuffle", "torch.pixel_shuffle"},
                   "upscale_factor", "(*, C*r*r, H, W) -> (*, C, H*r, W*r): depth to space"));
  r.add(shuffle_op("pixel_unshuffle",
                   {"torch.nn.functional.pixel_unshuffle", "torch.pixel_unshuffle"},
                   "downscale_factor", "(*, C, H*r, W*r) -> (*, C*r*r, H, W): space to depth"));
  r.add(shuffle_op("channel_shuffle",
                   {"torch.channel_shuffle", "torch.nn.functional.channel_shuffle",
                    "torch.native_channel_shuffle"},
                   "groups", "(N, C, *) with C = g*k: channel j*g + i takes channel i*k + j"));
}

}  // namespace pf
