#!/usr/bin/env python3
"""Builds the built-in demo replay script (prompts/demo/replay.jsonl) from the
reference passes under examples/passes/<task-id>/.

`passforge run` replays this script when no endpoint is configured. For every
task it records one tools-mode and one chat-mode episode that look like a model
at work, including a wrong first attempt so the retry loop shows:

  tools: write the files (one kernel with a typo), compile -> compile error,
         edit_file fixes the typo, compile -> ok, evaluate, submit
  chat:  answer 1 forgets the kernel file (launch of an unknown kernel),
         answer 2 is the complete pass, answer 3 is SUBMIT

Regenerate after changing examples/passes:
    python3 scripts/make_demo_replay.py            # writes prompts/demo/replay.jsonl
    python3 scripts/make_demo_replay.py --check    # exit 1 if the file is stale
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples", "passes")
OUT = os.path.join(ROOT, "prompts", "demo", "replay.jsonl")


def read_workspace(task_dir):
    files = {}
    for sub in ("passes", "kernels"):
        d = os.path.join(task_dir, sub)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name)
            if os.path.isfile(path) and (name.endswith(".py") or name.endswith(".cu") or name == "order.json"):
                with open(path, encoding="utf-8") as f:
                    files[f"{sub}/{name}"] = f.read()
    return files


def inject_typo(source):
    """A one-line typo the compiler rejects, and the line before/after, or None."""
    lines = source.split("\n")
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(("//", "#", "*")) or "return " not in line:
            continue
        if source.count(line) != 1:
            continue
        broken = line.replace("return ", "retrun ", 1)
        return source.replace(line, broken, 1), line, broken
    return None


def call(k, name, args):
    return {"id": f"call_{k}_0", "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)}}


def tools_entry(task, files):
    responses = []
    kernels = [p for p in files if p.startswith("kernels/")]
    typo = None
    broken_files = dict(files)
    if kernels:
        t = inject_typo(files[kernels[0]])
        if t:
            broken_files[kernels[0]] = t[0]
            typo = (kernels[0], t[1], t[2])
    order = sorted(files, key=lambda p: (not p.startswith("passes/"), p))
    for i, path in enumerate(order):
        note = ("I will fuse the whole op sequence into one kernel. First the pattern and the "
                "replacement." if i == 0 else None)
        msg = {"content": note, "tool_calls": [
            call(len(responses), "write_file", {"path": path, "content": broken_files[path]})]}
        responses.append(msg)
    responses.append({"content": "Let me compile it and check that the pattern matches every variant.",
                      "tool_calls": [call(len(responses), "compile", {})]})
    if typo:
        path, good, bad = typo
        responses.append({"content": "A typo in the kernel; fixing it.",
                          "tool_calls": [call(len(responses), "edit_file",
                                              {"path": path, "old_string": bad, "new_string": good})]})
        responses.append({"content": None, "tool_calls": [call(len(responses), "compile", {})]})
    responses.append({"content": "It compiles and matches. Now the full evaluation.",
                      "tool_calls": [call(len(responses), "evaluate", {})]})
    responses.append({"content": "Done.", "tool_calls": [call(len(responses), "submit", {})]})
    return {"task": task, "mode": "tools", "responses": responses}


def fence(path, content):
    lang = "python" if path.endswith(".py") else "json" if path.endswith(".json") else "cuda"
    body = content if content.endswith("\n") else content + "\n"
    return f"```{lang} {path}\n{body}```\n"


def chat_entry(task, files):
    passes = [p for p in files if p.startswith("passes/")]
    first = "Here is a pass that replaces the whole op sequence with one kernel launch.\n\n" + \
        "\n".join(fence(p, files[p]) for p in passes)
    complete = "I forgot the kernel file. Here is the complete pass.\n\n" + \
        "\n".join(fence(p, files[p]) for p in sorted(files, key=lambda p: (not p.startswith("passes/"), p)))
    return {"task": task, "mode": "chat",
            "responses": [{"content": first}, {"content": complete}, {"content": "SUBMIT"}]}


def build():
    lines = []
    for task in sorted(os.listdir(EXAMPLES)):
        task_dir = os.path.join(EXAMPLES, task)
        if not os.path.isdir(task_dir):
            continue
        files = read_workspace(task_dir)
        if not any(p.startswith("passes/") for p in files):
            continue
        for entry in (tools_entry(task, files), chat_entry(task, files)):
            lines.append(json.dumps(entry, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="fail if the committed script is stale")
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    text = build()
    if args.check:
        current = open(args.out, encoding="utf-8").read() if os.path.exists(args.out) else ""
        if current != text:
            print(f"{args.out} is stale: run python3 scripts/make_demo_replay.py", file=sys.stderr)
            return 1
        return 0
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {args.out} ({text.count(chr(10))} entries)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
