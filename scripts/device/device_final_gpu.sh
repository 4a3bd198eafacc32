#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# The GPU test label and compute-sanitizer (run_gpu_tests.sh; TESTS=equality:
# the stencil suite alone, or the tests EQUALITY_FILTER names, and the
# sanitizers on its small cases, for a bundle of the stencil programs), kernels alone (gpu_kernel_probe, the variants
# PROBE_ONLY names, default the register trapezoids), then APPS through the
# runtime (gpu_stencils). Table last; logs in $OUT.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
table=""
add() { table+="$1"$'\n'; echo "$1"; }
if [ "${TESTS:-all}" = equality ]; then
  {
    STARPU_NCPU=2 timeout "${TESTS_TIMEOUT:-300}" "$here/run.sh" gpu_equality_test --gtest_filter="${EQUALITY_FILTER:--GpuSanitizer.*}"
    echo "gpu_equality_test exit $?"
    sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    for tool in memcheck racecheck; do
      echo "== compute-sanitizer --tool $tool"
      STARPU_NCPU=2 "$here/run.sh" "$sanitizer" --tool "$tool" --error-exitcode 9 --print-limit 20 \
        "$here/bin/gpu_equality_test" --gtest_filter='GpuSanitizer.*'
      echo "$tool exit $?"
    done
  } > "$out/gpu_tests.txt" 2>&1
  add "gpu_equality_test and sanitizers: $(grep -E 'exit [0-9]+' "$out/gpu_tests.txt" | tr '\n' ' ')"
else
  timeout "${TESTS_TIMEOUT:-300}" "$here/run_gpu_tests.sh" > "$out/gpu_tests.txt" 2>&1
  add "run_gpu_tests.sh: exit $?"
fi
add "  ($(grep -cE '^\[       OK' "$out/gpu_tests.txt") OK, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/gpu_tests.txt") FAILED lines; sanitizer: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/gpu_tests.txt" | tr '\n' ' '))"
TRAPEZE_PROBE_ONLY=${PROBE_ONLY:-reg-trapezoid} TRAPEZE_PROBE_ROUNDS=${PROBE_ROUNDS:-5} timeout "${PROBE_TIMEOUT:-200}" \
  "$here/run.sh" gpu_kernel_probe > "$out/probe.txt" 2>&1; add "gpu_kernel_probe: exit $?"
table+="$(grep -E '^(stencil|jacobi|life|hotspot|kernels alone|vector-plane|vec-trapezoid)' "$out/probe.txt")"$'\n'
timeout "${STENCILS_TIMEOUT:-240}" "$here/run.sh" gpu_stencils --apps "${APPS:-jacobi3d}" --rounds 3 --json-out "$out/gpu_stencils.json" \
  > "$out/stencils.txt" 2>&1; add "gpu_stencils: exit $?"
table+="$(tail -6 "$out/stencils.txt")"$'\n'
echo "== table"; printf '%s' "$table"
