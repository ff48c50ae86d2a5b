#!/usr/bin/env python3
"""Sweep of the op registry against the torch calls GraphNet samples use.

Usage: scripts/graphnet_op_sweep.py DIR [--passforge build/passforge] [--json]

Lists every call spelling in the `model.py` files under DIR (as the importer
spells them: `torch.nn.functional.relu`, `Tensor.view`, `operator.add` for
`a + b`), how many variants use it, and whether passforge supports it. The
answer comes from passforge itself: `passforge import --json DIR` is run once;
a spelling used by a variant that imported is supported, and every
"unknown op 'X'" the importer reports marks X unsupported. A spelling seen only
in variants that failed for another reason is listed as "unknown" with that
reason, so nothing is guessed. Other import failures are grouped by message.

Only Python's standard library is needed; the samples are read, never run.
"""

import argparse
import ast
import collections
import json
import pathlib
import re
import subprocess
import sys
import tempfile

OPERATORS = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv",
    ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow", ast.MatMult: "matmul",
    ast.BitAnd: "and_", ast.BitOr: "or_", ast.BitXor: "xor", ast.LShift: "lshift",
    ast.RShift: "rshift", ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert",
    ast.Not: "not_", ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le",
    ast.Gt: "gt", ast.GtE: "ge",
}
MODULE_ROOTS = {"torch", "operator", "math", "builtins"}


def dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def spellings(source):
    """Call spellings in one model.py, as the importer names them."""
    tree = ast.parse(source)
    aliases = {"F": "torch.nn.functional", "nn": "torch.nn"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                aliases[a.asname or a.name] = node.module + "." + a.name
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            path = dotted(node.func)
            root = path.split(".")[0] if path else None
            if path and (root in aliases or root in MODULE_ROOTS):
                if root in aliases and aliases[root] != root:
                    path = aliases[root] + path[len(root):]
                out.append(path.replace("torch.Tensor.", "Tensor."))
            elif isinstance(node.func, ast.Attribute):
                out.append("Tensor." + node.func.attr)
            elif isinstance(node.func, ast.Name):
                out.append(node.func.id)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
            continue  # `-1` is a literal, not a call
        elif isinstance(node, (ast.BinOp, ast.UnaryOp)):
            out.append("operator." + OPERATORS.get(type(node.op), type(node.op).__name__))
        elif isinstance(node, ast.AugAssign):
            out.append("operator.i" + OPERATORS.get(type(node.op), type(node.op).__name__))
        elif isinstance(node, ast.Compare):
            out.extend("operator." + OPERATORS.get(type(op), type(op).__name__) for op in node.ops)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            out.append("operator.getitem")
    return out


def import_report(passforge, root):
    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run([passforge, "import", str(root), "--out", out, "--json"],
                             capture_output=True, text=True)
        if not run.stdout.strip():
            sys.exit(f"{passforge} import failed: {run.stderr.strip()}")
        return json.loads(run.stdout)


def variant_failures(report):
    """variant name -> import error message, from the importer's warnings."""
    failed = {}
    for r in report["results"]:
        for w in r.get("warnings", []):
            name, _, message = w.partition(": ")
            failed.setdefault(name, message)
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=pathlib.Path, help="GraphNet samples (searched recursively)")
    ap.add_argument("--passforge", default="build/passforge", help="passforge binary")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    args = ap.parse_args()

    models = sorted(args.dir.rglob("model.py"))
    if not models:
        sys.exit(f"{args.dir}: no model.py files")
    report = import_report(args.passforge, args.dir)
    failed = variant_failures(report)

    uses = collections.Counter()
    supported, seen_in_failed = set(), collections.defaultdict(set)
    for model in models:
        variant = model.parent.name
        try:
            names = set(spellings(model.read_text()))
        except SyntaxError as e:
            failed.setdefault(variant, f"not Python: {e}")
            continue
        uses.update(names)
        if variant in failed:
            for n in names:
                seen_in_failed[n].add(variant)
        else:
            supported.update(names)

    unknown_op = re.compile(r"unknown op '([^']+)'")
    unsupported = collections.Counter()
    other_failures = collections.Counter()
    for message in failed.values():
        m = unknown_op.search(message)
        if m:
            unsupported[m.group(1)] += 1
        else:
            # Line/column numbers differ per file; the reason does not.
            other_failures[re.sub(r"^\S+:\d+:\d+: ", "", message)] += 1

    rows = []
    for name, count in sorted(uses.items(), key=lambda kv: (-kv[1], kv[0])):
        if name in supported:
            status = "supported"
        elif name in unsupported:
            status = "unsupported"
        else:
            status = "unknown"
        rows.append({"spelling": name, "variants": count, "status": status})
    for name in unsupported:
        if name not in uses:
            rows.append({"spelling": name, "variants": unsupported[name], "status": "unsupported"})

    summary = {"variants": len(models), "failed": len(failed),
               "imported": len(models) - len(failed),
               "unsupported": dict(unsupported.most_common()),
               "other_failures": dict(other_failures.most_common()), "spellings": rows}
    if args.json:
        print(json.dumps(summary, indent=1))
        return
    print(f"{summary['imported']}/{len(models)} variants import")
    print("\nunsupported ops (variants whose first failure is this op):")
    for name, n in unsupported.most_common():
        print(f"  {n:4d}  {name}")
    print("\nother import failures:")
    for message, n in other_failures.most_common():
        print(f"  {n:4d}  {message}")
    print("\nspellings used only by variants that failed for another reason:")
    for r in rows:
        if r["status"] == "unknown":
            print(f"  {r['variants']:4d}  {r['spelling']}")


if __name__ == "__main__":
    main()
