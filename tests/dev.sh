#!/usr/bin/env bash
# One entry point for a fresh Debian or Ubuntu machine (and for CI):
#   bash tests/dev.sh serve   install what is missing, build, serve the calculator on localhost
#   bash tests/dev.sh test    install what is missing, build, run every test
#   bash tests/dev.sh build   install what is missing and build (native + wasm site)
# Environment: PORT (serve, default 8080), CHROMIUM (browser binary for the browser tests).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

setup() {
  local wanted=(emscripten nlohmann-json3-dev chromium cmake ninja-build g++ libgtest-dev)
  # A Node.js from elsewhere (NodeSource, nvm) brings its own npm; else take Debian's.
  command -v npm >/dev/null || wanted+=(nodejs npm)
  local missing=()
  for package in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$package")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "vramcalc: installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
  local node_major
  node_major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$node_major" -lt 20 ]; then
    echo "vramcalc: warning: Node.js $(node --version) is older than the tested 20; the" \
         "browser tests' playwright-core asks for Node 20 or newer" >&2
  fi
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
  fi
}

build() {
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build build
  emcmake cmake -S . -B build-wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build-wasm
}

node_test() {
  # --test-concurrency exists from Node 20; the browser tests must not share one machine's
  # two cores with each other.
  if [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ]; then
    node --test --test-concurrency=1 "$@"
  else
    node --test "$@"
  fi
}

case "${1:-}" in
  serve)
    setup
    build
    exec node tests/support/static-server.mjs build-wasm/site "${PORT:-8080}"
    ;;
  build)
    setup
    build
    ;;
  test)
    setup
    build
    ctest --test-dir build --output-on-failure
    node_test tests/wasm/
    node_test tests/web/
    ;;
  *)
    echo "usage: bash tests/dev.sh serve|test|build" >&2
    exit 2
    ;;
esac
