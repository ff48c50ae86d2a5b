#!/usr/bin/env bash
# Configures (once) and builds passforge into build/ (or $BUILD_DIR).
# BUILD_TYPE (default RelWithDebInfo) and JOBS (default: all cores) are honoured.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

BUILD_DIR=${BUILD_DIR:-build}
find_cuda_toolkit
command -v cmake >/dev/null 2>&1 || die "cmake not found: run scripts/deps.sh first"
command -v ninja >/dev/null 2>&1 || die "ninja not found: run scripts/deps.sh first"

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  args=(-S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}"
        -DCUDAToolkit_ROOT="$CUDAToolkit_ROOT")
  say "configuring $BUILD_DIR/"
  cmake "${args[@]}"
fi
say "building in $BUILD_DIR/ with ${JOBS:-$(nproc)} jobs"
cmake --build "$BUILD_DIR" -j "${JOBS:-$(nproc)}"
