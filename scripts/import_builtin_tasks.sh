#!/usr/bin/env bash
# Regenerates the built-in task suite under tasks/ from the GraphNet slices in
# ../shared/corpus/graphnet-slices (derived from PaddlePaddle/GraphNet, MIT):
# every task, plus float16 and bfloat16 copies of float32 variants, 20% of each
# task's variants hidden (deterministic). Then checks every variant on the CPU
# reference.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-../shared/corpus/graphnet-slices}
scripts/build.sh >/dev/null
rm -f tasks/*.json
build/passforge import "$CORPUS" --out tasks --add-dtypes float16,bfloat16 --hidden-share 0.2 \
  --source-label graphnet-slices --license "MIT (derived from PaddlePaddle/GraphNet samples)"
build/passforge tasks check tasks
