import torch


# Attention-score epilogue: softmax(x + mask, dim=-1), then dropout in eval
# mode (the identity). One warp per row reads the scores and the broadcast
# mask once per pass and writes the probabilities, instead of an add kernel,
# an intermediate tensor and a softmax kernel.
def pattern(x, mask, p):
    t0 = x + mask
    t1 = torch.nn.functional.softmax(t0, dim=-1)
    return torch.nn.functional.dropout(t1, p, False, False)


def replacement(x, mask, p):
    out = torch.empty_like(x)
    b, h, r, c = x.shape
    # Broadcast dims of the mask read with stride 0.
    mb = mask.stride(0) if mask.shape[0] > 1 else 0
    mh = mask.stride(1) if mask.shape[1] > 1 else 0
    mr = mask.stride(2) if mask.shape[2] > 1 else 0
    mc = mask.stride(3) if mask.shape[3] > 1 else 0
    rows = b * h * r
    if x.dtype == torch.float16:
        kernel = "masked_softmax_f16"
    elif x.dtype == torch.bfloat16:
        kernel = "masked_softmax_bf16"
    else:
        kernel = "masked_softmax_f32"
    warps = 4
    launch(kernel, grid=cdiv(rows, warps), block=32 * warps, args=(x, mask, out, rows, h, r, c, mb, mh, mr, mc))
    return out
