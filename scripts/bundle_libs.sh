#!/usr/bin/env bash
# Copies the shared libraries our binaries need but a bare machine may lack
# (spdlog, fmt, libseccomp, sqlite3, curl and its dependencies, cpp-httplib,
# toml++, ...) into <build>/lib, so a build made here runs on the GPU machine
# (Ubuntu 24.04, no Debian dev packages). Binaries find build/lib through their
# RPATH ($ORIGIN/lib) or LD_LIBRARY_PATH (tests/gpu/run_device.sh sets it).
#
# Not copied: the C/C++ runtime (glibc, libstdc++, libgcc_s), which must come
# from the target system (the GPU driver's libraries need its newer versions),
# and the CUDA libraries, which are loaded with dlopen from the target system.
#
# Usage: scripts/bundle_libs.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

BUILD_DIR=${1:-${BUILD_DIR:-build}}
[ -d "$BUILD_DIR" ] || die "no build directory $BUILD_DIR (build first: scripts/build.sh)"
LIB_DIR="$BUILD_DIR/lib"
mkdir -p "$LIB_DIR"

# Libraries the target system provides (or must provide): never bundled.
is_system_lib() {
  case "$1" in
    linux-vdso.so*|ld-linux*.so*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|libutil.so*|\
    libresolv.so*|libanl.so*|libnsl.so*|libcrypt.so*|libstdc++.so*|libgcc_s.so*|libatomic.so*|\
    libcuda.so*|libnvrtc*.so*|libcublas*.so*|libcudart.so*|libnvidia-*.so*) return 0 ;;
  esac
  return 1
}

# Every ELF executable and shared object we built (outside lib/ itself).
mapfile -t binaries < <(find "$BUILD_DIR" -path "$LIB_DIR" -prune -o -type f \( -perm -u+x -o -name '*.so*' \) -print |
  while read -r f; do [ "$(head -c 4 "$f" 2>/dev/null)" = $'\x7fELF' ] && echo "$f"; done)
[ "${#binaries[@]}" -gt 0 ] || die "no binaries in $BUILD_DIR"

declare -A copied=()
missing=()
for bin in "${binaries[@]}"; do
  # ldd prints "name => /path (addr)" or "name => not found".
  while read -r name arrow path _; do
    [ "$arrow" = "=>" ] || continue
    is_system_lib "$name" && continue
    if [ "$path" = "not" ]; then
      missing+=("$name (needed by $bin)")
      continue
    fi
    [ -n "${copied[$name]:-}" ] && continue
    # Skip what is already bundled (ldd may resolve into lib/ on a second run).
    if [ "$(readlink -f "$path")" != "$(readlink -f "$LIB_DIR/$name" 2>/dev/null || true)" ]; then
      cp -L "$path" "$LIB_DIR/$name"
    fi
    copied[$name]=1
  done < <(ldd "$bin" 2>/dev/null || true)
done

[ "${#missing[@]}" -eq 0 ] || die "unresolved libraries:$(printf '\n  %s' "${missing[@]}")"
say "${#copied[@]} libraries in $LIB_DIR for ${#binaries[@]} binaries:"
printf '  %s\n' "${!copied[@]}" | sort
# lib/ also holds a library of our own (libpf_gpu_prebuilt.so, written by the
# build), so its existence does not mean "bundled": this stamp does.
touch "$LIB_DIR/.bundled"
