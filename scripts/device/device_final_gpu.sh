#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# The GPU test label and compute-sanitizer (run_gpu_tests.sh), the 3-D
# register trapezoid alone (gpu_kernel_probe), then jacobi3d through the
# runtime (gpu_stencils). Table last; logs in $OUT.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
table=""
add() { table+="$1"$'\n'; echo "$1"; }
timeout "${TESTS_TIMEOUT:-300}" "$here/run_gpu_tests.sh" > "$out/gpu_tests.txt" 2>&1
add "run_gpu_tests.sh: exit $? ($(grep -cE '^\[       OK' "$out/gpu_tests.txt") OK, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/gpu_tests.txt") FAILED lines; sanitizer: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/gpu_tests.txt" | tr '\n' ' '))"
TRAPEZE_PROBE_ONLY=reg-trapezoid timeout 200 "$here/run.sh" gpu_kernel_probe > "$out/probe.txt" 2>&1; add "gpu_kernel_probe: exit $?"
table+="$(grep -E '^(stencil|jacobi3d|kernels alone)' "$out/probe.txt")"$'\n'
timeout 240 "$here/run.sh" gpu_stencils --apps "${APPS:-jacobi3d}" --rounds 3 > "$out/stencils.txt" 2>&1; add "gpu_stencils: exit $?"
table+="$(tail -5 "$out/stencils.txt")"$'\n'
echo "== table"; printf '%s' "$table"
