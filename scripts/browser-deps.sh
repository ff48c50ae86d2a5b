#!/usr/bin/env bash
# Installs what the browser test of `passforge serve` needs
# (tests/browser/serve_browser_test.mjs): Debian's chromium, nodejs and npm,
# then playwright-core from tests/browser/package-lock.json (`npm ci`).
# Idempotent and non-interactive; as root or through sudo. Without these the
# test skips with the reason, so a failure here is reported, not fatal.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

PACKAGES=(chromium nodejs npm)
missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    # node and npm may come from elsewhere (NodeSource, nvm): present is enough.
    case "$p" in
      nodejs) command -v node >/dev/null 2>&1 && continue ;;
      npm) command -v npm >/dev/null 2>&1 && continue ;;
    esac
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  say "chromium, node and npm present"
fi

cd tests/browser
want=$(node -p "require('./package-lock.json').packages['node_modules/playwright-core'].version")
have=$(node -p "require('./node_modules/playwright-core/package.json').version" 2>/dev/null || true)
cd ../..
if [ "$want" = "$have" ]; then
  say "playwright-core $have present"
else
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi
say "$(chromium --version 2>/dev/null | head -n1), node $(node --version)"
