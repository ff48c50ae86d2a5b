#!/usr/bin/env python3
"""Writes bench/export_mix/replay.jsonl: the replay script of the export-mix
device check (bench/export_mix/run.sh, issue 16).

Every answer is a reference pass of examples/passes/ (honest, correct at t = -5
on the GPU), written with write_file and submitted, or a copy with one change:
  wrong    the kernel computes something else (incorrect; AS usually > 0.1
           because the outputs still pass at loose tolerance levels)
  flagged  the kernel reads clock64() (never acts on it): static flag timer_read
Two models answer differently on the same task, so the episodes of one task
share the prompt and differ at the assistant message that writes the kernel:
DPO pairs with a verified and an unverified side.

Usage: bench/export_mix/make_replay.py > bench/export_mix/replay.jsonl
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
PASSES = ROOT / "examples" / "passes"

NEG_CAT = "neg-cat-mul-add-6a5c9e"
RMS = "pow-mean-add-rsqrt-mul-ae9e8f"
SOFTMAX = "add-softmax-dropout-a73f2b"
GELU = "linear-mul-truediv-erf-add-mul-2eaa9f"


def files(task):
    d = PASSES / task
    return {str(p.relative_to(d)): p.read_text() for p in sorted(d.rglob("*")) if p.is_file()}


def edit(task, path, old, new):
    f = files(task)
    assert old in f[path], (task, path, old)
    f[path] = f[path].replace(old, new)
    return f


def answers(f):
    """Pass files first, kernels second, then submit: three assistant messages."""
    out = []
    order = sorted(f, key=lambda p: (not p.startswith("passes/"), p))
    for i, path in enumerate(order):
        args = json.dumps({"path": path, "content": f[path]})
        out.append({"content": f"Writing {path}.",
                    "tool_calls": [{"id": f"call_{i}", "type": "function",
                                    "function": {"name": "write_file", "arguments": args}}]})
    out.append({"content": "Submitting the pass.",
                "tool_calls": [{"id": "call_submit", "type": "function",
                                "function": {"name": "submit", "arguments": "{}"}}]})
    return out


def main():
    wrong_rope = edit(NEG_CAT, "kernels/rope.cu", "    if (first) xv = -xv;\n", "")
    wrong_softmax = edit(SOFTMAX, "kernels/masked_softmax.cu",
                         "orow[j] = from_f<T>(__fdiv_rn(expf(v - mx), sum));",
                         "orow[j] = from_f<T>(__fdiv_rn(expf(v - mx), sum * 1.25f));")
    flagged_rms = edit(RMS, "kernels/rms_norm.cu", "  rms_norm(x, out, rows, d, eps, vec);\n",
                       "  if (clock64() < 0) return;  // never true: only the read is flagged\n"
                       "  rms_norm(x, out, rows, d, eps, vec);\n")
    entries = [
        # replay-a: correct, flagged, wrong, correct
        ("replay-a", NEG_CAT, files(NEG_CAT)),
        ("replay-a", RMS, flagged_rms),
        ("replay-a", SOFTMAX, wrong_softmax),
        ("replay-a", GELU, files(GELU)),
        # replay-b: the other way round on two tasks (DPO pairs with replay-a)
        ("replay-b", NEG_CAT, wrong_rope),
        ("replay-b", SOFTMAX, files(SOFTMAX)),
    ]
    for model, task, f in entries:
        line = {"task": task, "mode": "tools", "model": model, "responses": answers(f)}
        sys.stdout.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
