#!/usr/bin/env bash
# Installs this build into a temporary prefix and builds the CPU benchmark
# against hand-written StarPU as an outside project would (with
# trapeze::kernel_flags, and without: the user's default flags), then runs
# both. Arguments go to the benchmark (e.g. --rounds 5 --apps life).
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$repo_root/scripts/build.sh" >/dev/null
export PKG_CONFIG_PATH="$repo_root/.deps/starpu/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$repo_root/build" --prefix "$work/prefix" >/dev/null
for flags in ON OFF; do
  cmake -S "$repo_root/benchmarks/outside_project" -B "$work/build-$flags" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$work/prefix" -DTRAPEZE_SOURCE="$repo_root" -DKERNEL_FLAGS=$flags >/dev/null
  cmake --build "$work/build-$flags" -j"$(nproc)" >/dev/null
done
export STARPU_SILENT=${STARPU_SILENT:-1}
for flags in ON OFF; do
  echo "== outside project, trapeze::kernel_flags $flags"
  "$work/build-$flags/cpu_vs_starpu_by_hand" "$@" 2>/dev/null
done
