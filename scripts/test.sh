#!/usr/bin/env bash
# The test command: builds if needed, then runs every test suite with ctest.
# GPU tests skip (with the reason) on machines without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${JOBS:-$(nproc)}" "$@"
