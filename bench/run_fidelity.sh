#!/usr/bin/env bash
# One command for the lead on the GPU machine: fidelity (vs PyTorch eager in a
# CUDA graph, plus Python eager and Inductor) and stability over the built-in
# suite (tasks/) unless task files / corpus directories are given; results
# under bench/results/.
#   bench/run_fidelity.sh [BUILD_DIR] [TASKS_OR_CORPUS_DIR...]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
shift || true
CORPUS=("$@")
if [ ${#CORPUS[@]} -eq 0 ]; then
  CORPUS=(tasks)
fi
export LD_LIBRARY_PATH="$BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
python3 bench/fidelity.py --build "$BUILD" "${CORPUS[@]}" ${FIDELITY_ARGS:-}
python3 bench/stability.py --build "$BUILD" "${CORPUS[@]}" ${STABILITY_ARGS:-}
