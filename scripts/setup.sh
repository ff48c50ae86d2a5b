#!/usr/bin/env bash
# One command for a fresh machine: install dependencies, build, and run the
# main job with the quickstart config. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
echo
echo "setup: built build/passforge; running the quickstart job"
exec build/passforge run --config configs/quickstart.toml
