#!/usr/bin/env bash
# One command for a fresh machine: install dependencies, build what the main
# job needs (the CLI and the worker; scripts/test.sh builds the test suites),
# and run the main job with the quickstart config. Safe to run again (only
# missing packages are installed, the build is incremental).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

scripts/deps.sh
scripts/build.sh passforge passforge-worker
"${BUILD_DIR:-build}"/passforge doctor --config configs/quickstart.toml || \
  say "doctor reported problems (above); the quickstart job runs anyway"
echo
say "running the quickstart job: build/passforge run --config configs/quickstart.toml"
exec "${BUILD_DIR:-build}"/passforge run --config configs/quickstart.toml
