#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# The 16-byte single step (codelets/cuda/vector_step_kernel.cuh): the kernels
# alone against plain copies (gpu_kernel_probe), the GPU equality suite and
# compute-sanitizer on its small cases, then APPS through the runtime against
# the plain loop (gpu_stencils). Logs in $OUT, a table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
table=""
add() { table+="$1"$'\n'; echo "$1"; }
nvidia-smi -L
TRAPEZE_PROBE_ONLY=${PROBE_ONLY:-copy,vector-step,by hand} TRAPEZE_PROBE_ROUNDS=${PROBE_ROUNDS:-7} \
  timeout "${PROBE_TIMEOUT:-200}" "$here/run.sh" gpu_kernel_probe > "$out/probe.txt" 2>&1
add "gpu_kernel_probe: exit $?"
table+="$(grep -E '^(stencil|jacobi2d|kernels alone)' "$out/probe.txt")"$'\n'
if [ "${TESTS:-1}" = 1 ]; then
  {
    STARPU_NCPU=2 timeout "${TESTS_TIMEOUT:-300}" "$here/run.sh" gpu_equality_test --gtest_filter=-GpuSanitizer.*
    echo "gpu_equality_test exit $?"
    sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    for tool in memcheck racecheck; do
      echo "== compute-sanitizer --tool $tool"
      STARPU_NCPU=2 STARPU_NCUDA=1 "$here/run.sh" "$sanitizer" --tool "$tool" --error-exitcode 9 --print-limit 20 \
        "$here/bin/gpu_equality_test" --gtest_filter='GpuSanitizer.*'
      echo "$tool exit $?"
    done
  } > "$out/gpu_tests.txt" 2>&1
  add "tests: $(grep -E 'exit [0-9]+' "$out/gpu_tests.txt" | tr '\n' ' ')"
  add "  ($(grep -cE '^\[       OK' "$out/gpu_tests.txt") OK, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/gpu_tests.txt") FAILED lines; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/gpu_tests.txt" | tr '\n' ' '))"
fi
if [ -n "${APPS:-jacobi2d,hotspot}" ]; then
  timeout "${STENCILS_TIMEOUT:-240}" "$here/run.sh" gpu_stencils --apps "${APPS:-jacobi2d,hotspot}" --rounds 3 \
    --json-out "$out/gpu_stencils.json" > "$out/stencils.txt" 2>&1
  add "gpu_stencils: exit $?"
  table+="$(tail -8 "$out/stencils.txt")"$'\n'
fi
echo "== table"; printf '%s' "$table"
