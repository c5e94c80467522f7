#!/usr/bin/env bash
# One entry point for a fresh Debian or Ubuntu machine (and for CI):
#   bash tests/dev.sh serve   install what is missing, build, serve the calculator on localhost
#   bash tests/dev.sh test    install what is missing, build, run every test
#   bash tests/dev.sh build   install what is missing and build (native + wasm site)
#   bash tests/dev.sh fuzz [SECONDS]  run every libFuzzer target longer (default 600 s each)
#   bash tests/dev.sh bench   build, then report speed and size against tests/bench/budget.json
#                             (also part of `test`, where only the size ceiling can fail)
# Environment: PORT (serve, default 8080); CHROMIUM, FIREFOX, WEBKIT_DRIVER, WEBKIT_BROWSER (browser
# binaries for the browser tests); VRAMCALC_ENGINES=chromium,firefox,webkit (engines.test.mjs's
# engines; default all).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# setup [test]: with "test", also the other browsers that tests/web/engines.test.mjs runs the
# page in: Firefox ESR, and WebKitGTK's MiniBrowser and WebKitWebDriver in a virtual display
# (xvfb-run, which needs xauth).
setup() {
  local wanted=(emscripten nlohmann-json3-dev chromium cmake ninja-build g++ libgtest-dev
                clang libclang-rt-14-dev)
  if [ "${1:-}" = test ]; then wanted+=(firefox-esr webkit2gtk-driver xvfb xauth); fi
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

# The sanitizer build: the GoogleTest suite under ASan + UBSan, and the libFuzzer targets.
build_sanitize() {
  CXX=clang++ cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVRAMCALC_SANITIZE=ON
  cmake --build build-sanitize
}

# Runs each fuzz target for $1 seconds on its seeds (tests/fuzz/corpus, the golden configs); new
# inputs go to build-sanitize/fuzz-corpus/, crashes fail the run.
fuzz() {
  local seconds=$1
  shift
  local targets=("$@") target seeds
  [ $# -gt 0 ] || targets=(request config catalog object)
  for target in "${targets[@]}"; do
    case $target in
      request) seeds=(tests/fuzz/corpus/request) ;;
      config) seeds=(tests/fuzz/corpus/config tests/golden/configs tests/golden/descriptions) ;;
      catalog) seeds=(tests/fuzz/corpus/catalog) ;;
      object) seeds=(tests/fuzz/corpus/object) ;;
    esac
    mkdir -p "build-sanitize/fuzz-corpus/$target" build-sanitize/fuzz-artifacts
    echo "vramcalc: fuzzing $target for ${seconds}s"
    # The fuzzer's own status decides (under pipefail a "| grep || true" would hide a crash).
    local status=0
    "build-sanitize/tests/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix=build-sanitize/fuzz-artifacts/ -print_final_stats=1 \
      "build-sanitize/fuzz-corpus/$target" "${seeds[@]}" > "build-sanitize/fuzz-$target.log" 2>&1 || status=$?
    grep -E "^(Done|stat::number_of_executed_units|==)|ERROR|SUMMARY|runtime error" "build-sanitize/fuzz-$target.log" || true
    [ "$status" -eq 0 ] || { echo "vramcalc: fuzz_$target found a failure (build-sanitize/fuzz-artifacts/, build-sanitize/fuzz-$target.log)" >&2; return 1; }
  done
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
    setup test
    # No function over 60 lines in core/, wasm/ or web/ (the list of any that grow past it).
    node tests/lint/function_length.mjs
    build
    ctest --test-dir build --output-on-failure
    node_test tests/lint/
    node_test tests/wasm/
    node_test tests/web/
    # The benchmark reports every figure; only the size ceiling (tests/bench/budget.json) can fail.
    node tests/bench/bench.mjs
    build_sanitize
    ctest --test-dir build-sanitize --output-on-failure
    fuzz 15
    ;;
  bench)
    setup
    build
    node tests/bench/bench.mjs
    ;;
  fuzz)
    setup
    build_sanitize
    fuzz "${2:-600}" "${@:3}"
    ;;
  *)
    echo "usage: bash tests/dev.sh serve|test|build|bench|fuzz [seconds]" >&2
    exit 2
    ;;
esac
