#!/usr/bin/env bash
# Regenerates the built-in task suite under tasks/ from the GraphNet slices
# (derived from PaddlePaddle/GraphNet, MIT; the directory is the argument):
# every task, plus float16 and bfloat16 copies of float32 variants, 20% of each
# task's variants hidden (deterministic). Then checks every variant on the CPU
# reference.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 GRAPHNET_SLICES_DIR  (the 50-task graphnet-slices corpus directory)" >&2
  exit 2
fi
CORPUS=$(realpath "$1")
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
rm -f tasks/*.json
build/passforge import "$CORPUS" --out tasks --add-dtypes float16,bfloat16 --hidden-share 0.2 \
  --source-label graphnet-slices --license "MIT (derived from PaddlePaddle/GraphNet samples)"
build/passforge tasks check tasks
