#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 12: StarPU built with blocking drivers (idle workers sleep instead of
# polling their core) against the default build (polling), in one bundle: the
# bundle's lib-blocking/ holds libstarpu and libstarpumpi of a build
# configured with --enable-blocking-drivers (scripts/setup.sh's options plus
# that one), and BUNDLE_LIBS=lib-blocking puts them first. First the grid
# copies beside a started Runtime under each build (what polling workers
# cost helper threads), then 1 GPU, 2 GPUs and 2 MPI ranks under each,
# interleaved rounds (device_two_gpus.sh, LIBS="lib lib-blocking"). Each
# 2-GPU or 2-rank variant is compared with 1 GPU of the same build.
# Env: ROUNDS (3), J2 (49152x49152:1024), J3 (1024x1024x1024:512). A table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
[ -f "$here/lib-blocking/libstarpu-1.4.so.9" ] || { echo "no lib-blocking/ in the bundle"; exit 1; }
copies=""
for libs in lib lib-blocking; do
  copies+="== grid_copy_rates beside a started Runtime, StarPU from $libs"$'\n'
  copies+=$(BUNDLE_LIBS=$libs "$here/run.sh" grid_copy_rates 4 1,8 starpu 2>&1 | tail -7)$'\n'
done
J2=${J2:-49152x49152:1024} J3=${J3:-1024x1024x1024:512} ROUNDS=${ROUNDS:-3} LIBS="lib lib-blocking" MPI=1 POLICY_ROUNDS=0 \
  "$here/device_two_gpus.sh" > "$out/two_gpus.txt" 2>&1
echo "$copies" | tee "$out/grid_copy_rates.txt"
grep -v "^round\|perfmodels" "$out/two_gpus.txt"
