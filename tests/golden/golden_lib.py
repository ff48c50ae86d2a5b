"""Helpers for writing golden op fixtures from PyTorch (see README.md).

A generator script builds cases with Golden.case() and writes one JSON file:

    g = Golden("arithmetic")
    g.case("add/f32/broadcast", "torch.add", [rnd([2, 3]), rnd([3])], {"alpha": 2})
    g.write()

Tensors inside args/kwargs become graph inputs (in order of first appearance);
everything else is recorded as a literal. Expected values come from PyTorch:
float32/float64/integer cases run natively; a case touching float16/bfloat16
runs with those tensors (and dtype literals) upcast to float32 and the outputs
rounded to the dtype PyTorch eager gives (taken from a meta-device run). That is
what PyTorch's CUDA kernels compute (float opmath), and what passforge's
reference models; PyTorch's CPU half kernels are mostly missing or round every
intermediate.
"""

import json
import math
import operator
import os
import sys
import warnings

import torch

warnings.filterwarnings("ignore")

_GEN = torch.Generator().manual_seed(20240601)
_REDUCED = (torch.float16, torch.bfloat16)
_DTYPE_NAMES = {
    torch.bool: "bool", torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16",
    torch.int32: "int32", torch.int64: "int64", torch.float16: "float16",
    torch.bfloat16: "bfloat16", torch.float32: "float32", torch.float64: "float64",
}
_EPS = {torch.float16: 2.0 ** -10, torch.bfloat16: 2.0 ** -7,
        torch.float32: 2.0 ** -23, torch.float64: 2.0 ** -52}

F16, BF16, F32, F64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
FLOATS = (F32, F16, BF16)
ALL_FLOATS = (F32, F16, BF16, F64)


def dtype_tag(dt):
    return {F32: "f32", F16: "f16", BF16: "bf16", F64: "f64", torch.int64: "i64",
            torch.int32: "i32", torch.int16: "i16", torch.int8: "i8", torch.uint8: "u8",
            torch.bool: "bool"}[dt]


def eps(dt):
    """Machine epsilon of a floating dtype (spacing of values in [1, 2))."""
    return _EPS[dt]


# ---- input makers -------------------------------------------------------------------

def rnd(shape, dtype=torch.float32, lo=-3.0, hi=3.0):
    """Uniform values in [lo, hi), rounded to dtype."""
    t = torch.rand(shape, generator=_GEN, dtype=torch.float64) * (hi - lo) + lo
    return t.to(dtype)


def rnormal(shape, dtype=torch.float32, std=1.0):
    return (torch.randn(shape, generator=_GEN, dtype=torch.float64) * std).to(dtype)


def rint(shape, dtype=torch.int64, lo=-10, hi=10):
    """Uniform integers in [lo, hi)."""
    return torch.randint(lo, hi, shape, generator=_GEN, dtype=torch.int64).to(dtype)


def distinct(shape, dt=torch.float32):
    """Distinct values (a permutation of a grid exact in every float dtype), so no ties."""
    n = 1
    for s in shape:
        n *= s
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(n)) - n // 2
    scale = 4 if dt.is_floating_point else 1
    return (perm.to(torch.float64) / scale).reshape(shape).to(dt)


def rbool(shape):
    return torch.rand(shape, generator=_GEN) < 0.5


def special(dtype=torch.float32):
    """A small tensor of edge values: signed zeros, infinities, NaN, halves."""
    vals = [0.0, -0.0, float("inf"), -float("inf"), float("nan"), 0.5, -0.5, 1.5, -2.5, 1e-3]
    return torch.tensor(vals, dtype=torch.float64).to(dtype)


def permuted(t, perm):
    """A non-contiguous view with t's values: base.permute(perm) where base is contiguous."""
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    base = t.permute(inv).contiguous()
    view = base.permute(perm)
    assert torch.equal(view, t) or t.is_floating_point() and torch.allclose(view, t, equal_nan=True)
    return view


def transposed(t):
    """A transposed (last two dims swapped) non-contiguous view holding t's values."""
    perm = list(range(t.dim()))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return permuted(t, perm)


def strided(t, dim=-1):
    """A view with step 2 along dim (odd elements of a twice-as-long base hold junk)."""
    dim = dim % t.dim()
    shape = list(t.shape)
    shape[dim] *= 2
    base = torch.full(shape, 7, dtype=t.dtype)
    index = [slice(None)] * t.dim()
    index[dim] = slice(0, None, 2)
    view = base[tuple(index)]
    view.copy_(t)
    return view


def expanded(t, shape):
    """A broadcast view (stride 0 where t has size 1)."""
    return t.expand(shape)


# ---- encoding -----------------------------------------------------------------------

def _num(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return float(v)


def _values(t):
    flat = t.detach().reshape(-1)
    if t.dtype == torch.bool:
        return [bool(v) for v in flat.tolist()]
    if t.is_floating_point():
        return [_num(float(v)) for v in flat.to(torch.float64).tolist()]
    return [int(v) for v in flat.tolist()]


def _tensor_json(t):
    out = {"dtype": _DTYPE_NAMES[t.dtype], "shape": list(t.shape), "values": _values(t)}
    if not t.is_contiguous() or t.storage_offset() != 0:
        out["layout"] = {"strides": list(t.stride()), "offset": t.storage_offset(),
                         "storage_size": t.storage().size()}
    return out


class _Collector:
    def __init__(self):
        self.tensors = []

    def index(self, t):
        for i, u in enumerate(self.tensors):
            if u is t:
                return i
        self.tensors.append(t)
        return len(self.tensors) - 1

    def literal(self, v):
        if isinstance(v, torch.Tensor):
            return {"tensor": self.index(v)}
        if isinstance(v, torch.dtype):
            return {"dtype": _DTYPE_NAMES[v]}
        if isinstance(v, torch.device):
            return {"device": str(v)}
        if isinstance(v, slice):
            return {"slice": [v.start, v.stop, v.step]}
        if v is Ellipsis:
            return {"ellipsis": True}
        if v is None or isinstance(v, (bool, int, str)):
            return v
        if isinstance(v, float):
            return v if math.isfinite(v) else {"float": _num(v)}
        if isinstance(v, tuple):
            return {"tuple": [self.literal(x) for x in v]}
        if isinstance(v, list):
            return [self.literal(x) for x in v]
        raise TypeError(f"cannot encode literal {v!r}")


# ---- running ------------------------------------------------------------------------

def resolve(spelling):
    """A callable for "torch.add", "Tensor.add", "operator.add", "torch._C._nn.gelu"."""
    head, _, rest = spelling.partition(".")
    if head == "Tensor":
        return lambda self, *a, **k: getattr(self, rest)(*a, **k)
    obj = {"torch": torch, "operator": operator}[head]
    for part in rest.split("."):
        obj = getattr(obj, part)
    return obj


_IN_PLACE_OPERATORS = {"iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow", "iand",
                       "ior", "ixor", "imatmul", "ilshift", "irshift"}


def is_in_place(spelling):
    """In-place spellings (x.add_(y), x += y) become out-of-place ops in the graph IR."""
    head, _, name = spelling.rpartition(".")
    return name.endswith("_") and not name.startswith("_") or (
        head == "operator" and name in _IN_PLACE_OPERATORS)


def _map(v, f):
    if isinstance(v, torch.Tensor):
        return f(v)
    if isinstance(v, torch.dtype):
        return f(v)
    if isinstance(v, list):
        return [_map(x, f) for x in v]
    if isinstance(v, tuple):
        return tuple(_map(x, f) for x in v)
    if isinstance(v, dict):
        return {k: _map(x, f) for k, x in v.items()}
    return v


def _outputs(r):
    if isinstance(r, torch.Tensor):
        return [r]
    if isinstance(r, (tuple, list)):
        assert all(isinstance(x, torch.Tensor) for x in r), r
        return list(r)
    raise TypeError(f"op returned {type(r).__name__}, not tensors")


def _clone_inputs(v):
    """Fresh copies with the same geometry, so in-place spellings leave the case's inputs intact."""
    def clone(t):
        if not isinstance(t, torch.Tensor):
            return t
        return torch.empty(0, dtype=t.dtype).set_(
            t.storage().clone(), t.storage_offset(), t.shape, t.stride())
    return _map(v, clone)


def _upcast(v):
    def up(x):
        if isinstance(x, torch.dtype):
            return torch.float32 if x in _REDUCED else x
        return x.float() if x.dtype in _REDUCED else x
    return _map(v, up)


def _meta(v):
    def to_meta(x):
        if isinstance(x, torch.dtype):
            return x
        return torch.empty_strided(x.shape, x.stride(), dtype=x.dtype, device="meta")
    return _map(v, to_meta)


def _involves_reduced(args, kwargs, outs):
    found = []
    _map([args, kwargs], lambda x: found.append(x if isinstance(x, torch.dtype) else x.dtype) or x)
    return any(d in _REDUCED for d in found) or any(o.dtype in _REDUCED for o in outs)


def _shares(a, b):
    return a.storage().data_ptr() == b.storage().data_ptr() and a.storage().size() > 0


class Golden:
    """Collects the cases of one family and writes tests/golden/<family>.json."""

    def __init__(self, family):
        self.family = family
        self.cases = []
        self.names = set()

    def case(self, name, spelling=None, args=(), kwargs=None, *, fn=None, op=None, tol=None,
             expect_error=False, reference="auto", in_place=None, values=True):
        """One fixture.

        spelling: how PyTorch spells the call ("torch.add", "Tensor.add_", "operator.mul");
          recorded, and the test looks it up among the op's aliases.
        fn/op: alternatively a Python callable computing the case and the canonical op name.
        tol: {"ulps": u, "abs": a} allowance over the default 1 ulp of the output dtype.
        expect_error: PyTorch must raise; passforge must report an error (not crash).
        reference: "auto" (upcast float16/bfloat16 to float32), "native" or "upcast".
        values: False for ops whose values are unspecified (torch.empty): only dtype, shape and
          aliasing are recorded.
        in_place: the call writes into its input (default: from the spelling or inplace=True);
          the graph IR makes such calls out-of-place, so aliasing is not recorded.
        """
        assert name not in self.names, f"duplicate case name {name}"
        self.names.add(name)
        kwargs = dict(kwargs or {})
        args = list(args)
        call = fn or resolve(spelling)
        col = _Collector()
        enc_args = [col.literal(a) for a in args]
        enc_kwargs = {k: col.literal(v) for k, v in kwargs.items()}
        case = {"name": name}
        if spelling:
            case["spelling"] = spelling
        if op:
            case["op"] = op
        case["args"] = enc_args
        case["kwargs"] = enc_kwargs
        case["inputs"] = [_tensor_json(t) for t in col.tensors]

        if expect_error:
            try:
                call(*_clone_inputs(args), **_clone_inputs(kwargs))
            except Exception as e:  # noqa: BLE001 - any PyTorch error is the expectation
                case["error"] = str(e).splitlines()[0][:200]
                self.cases.append(case)
                return
            raise AssertionError(f"{name}: expected PyTorch to raise")

        native, native_err = None, None
        cargs, ckwargs = _clone_inputs(args), _clone_inputs(kwargs)
        try:
            native = _outputs(call(*cargs, **ckwargs))
        except Exception as e:  # noqa: BLE001
            native_err = e
        try:
            meta = _outputs(call(*_meta(args), **_meta(kwargs)))
        except Exception:  # noqa: BLE001 - meta kernels are missing for some ops
            meta = None
        shapes_from = meta if meta is not None else native
        if shapes_from is None:
            raise AssertionError(f"{name}: PyTorch failed: {native_err}")

        use_upcast = reference == "upcast" or (
            reference == "auto" and _involves_reduced(args, kwargs, shapes_from))
        if use_upcast:
            uargs, ukwargs = _upcast(_clone_inputs(args)), _upcast(_clone_inputs(kwargs))
            up = _outputs(call(*uargs, **ukwargs))
            outs = [u.to(s.dtype) for u, s in zip(up, shapes_from)]
            case["reference"] = "float32_upcast"
            alias_run = (native, cargs, ckwargs)
            if native is None:
                alias_run = (up, uargs, ukwargs)
        else:
            if native is None:
                raise AssertionError(f"{name}: PyTorch failed: {native_err}")
            outs = native
            case["reference"] = "native"
            alias_run = (native, cargs, ckwargs)
        for o, s in zip(outs, shapes_from):
            assert o.dtype == s.dtype and o.shape == s.shape, (name, o.dtype, s.dtype)

        run_outs, run_args, run_kwargs = alias_run
        run_col = _Collector()
        for a in run_args:
            run_col.literal(a)
        for v in run_kwargs.values():
            run_col.literal(v)
        aliases = []
        if in_place is None:
            in_place = (spelling is not None and is_in_place(spelling)) or kwargs.get("inplace") is True
        for o in run_outs:
            if in_place:
                aliases.append(None)
                continue
            hit = None
            for i, t in enumerate(run_col.tensors):
                if _shares(o, t):
                    hit = i
                    break
            aliases.append(hit)

        case["outputs"] = []
        for o, a in zip(outs, aliases):
            enc = _tensor_json(o.contiguous())
            enc.pop("layout", None)
            if not values:
                del enc["values"]
            if a is not None:
                enc["aliases_input"] = a
            case["outputs"].append(enc)
        if tol:
            case["tol"] = tol
        self.cases.append(case)

    def write(self):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{self.family}.json")
        doc = {
            "family": self.family,
            "generated_by": f"tests/golden/{os.path.basename(sys.argv[0])}",
            "torch_version": torch.__version__,
            "cases": self.cases,
        }
        with open(path, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
            f.write("\n")
        print(f"{path}: {len(self.cases)} cases, {os.path.getsize(path)} bytes")
