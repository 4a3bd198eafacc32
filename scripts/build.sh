#!/usr/bin/env bash
# Configures and builds Trapeze in build/ (running the set-up first when needed).
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case "${TRAPEZE_BUILD_BENCHMARKS:-ON}" in
  ON|OFF) ;;
  *) echo "build.sh: TRAPEZE_BUILD_BENCHMARKS must be ON or OFF, got '${TRAPEZE_BUILD_BENCHMARKS}'" >&2; exit 2 ;;
esac
bash "$repo_root/scripts/setup.sh"
export PKG_CONFIG_PATH="$repo_root/.deps/starpu/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
extra=()
[ "${CI:-}" = "true" ] && extra+=(-DTRAPEZE_WARNINGS_AS_ERRORS=ON)
# TRAPEZE_BUILD_BENCHMARKS=OFF leaves the benchmarks out (CI does: they take a
# quarter of the build and no test runs them); passed every time, so that a
# later plain build turns them back on.
extra+=(-DTRAPEZE_BUILD_BENCHMARKS="${TRAPEZE_BUILD_BENCHMARKS:-ON}")
cmake -S "$repo_root" -B "$repo_root/build" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" "$@" >/dev/null
cmake --build "$repo_root/build" -j"$(nproc)"
