#!/usr/bin/env bash
# The test command: builds everything if needed (the test suites too), then
# runs every test suite with ctest.
# GPU tests skip (with the reason) on machines without a GPU. Extra arguments
# go to ctest (e.g. scripts/test.sh -R config).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

scripts/build.sh
say "running tests"
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure --no-tests=error \
      -j "${JOBS:-$(nproc)}" "$@"
