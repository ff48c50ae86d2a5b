"""Float64 references for golden cases of ops that accumulate (matmul, conv, norms, pooling).

passforge's CPU reference computes these in float64 and rounds once to the output dtype.
PyTorch's float32 kernels round partial sums, so comparing against them needs a tolerance that
grows with the reduction length and hides real mistakes. f64(spelling) instead runs the same
PyTorch op on float64 copies of the floating inputs and rounds the result to the dtype of the
first floating input: the exact value the reference must produce (default 1 ulp). Use with
reference="native" so float16/bfloat16 cases are rounded once, from float64.

A few cases per family still compare against PyTorch's native float32 result with a stated
tolerance, to show the two agree in practice.
"""
import torch

from golden_lib import resolve


def _floating_dtypes(v, out):
    if isinstance(v, torch.Tensor):
        if v.is_floating_point():
            out.append(v.dtype)
    elif isinstance(v, (list, tuple)):
        for x in v:
            _floating_dtypes(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _floating_dtypes(x, out)
    return out


def _up(v):
    if isinstance(v, torch.Tensor):
        return v.double() if v.is_floating_point() else v
    if isinstance(v, list):
        return [_up(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_up(x) for x in v)
    return v


def f64(spelling_or_fn):
    """A callable computing spelling_or_fn in float64, rounded to the first floating input's dtype."""
    call = resolve(spelling_or_fn) if isinstance(spelling_or_fn, str) else spelling_or_fn

    def run(*args, **kwargs):
        dts = _floating_dtypes([list(args), kwargs], [])
        out_dt = dts[0] if dts else torch.float32
        res = call(*_up(list(args)), **{k: _up(v) for k, v in kwargs.items()})
        if isinstance(res, torch.Tensor):
            return res.to(out_dt)
        return tuple(r.to(out_dt) for r in res)

    return run
