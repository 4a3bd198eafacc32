#!/usr/bin/env bash
# The GPU run behind docs/PERF.md's GPU section, from a bundle
# (scripts/make_gpu_bundle.sh) on a GPU machine: the benchmark table first
# (benchmarks/gpu_stencils.cpp), then the GPU tests and compute-sanitizer.
# Logs and the JSON table go to $OUT (or /tmp). Parts: PARTS="bench tests".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bundle=${BUNDLE:-$here/gpu-bundle}
out=${OUT:-/tmp}
parts=${PARTS:-bench tests}
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
status=0
if [[ " $parts " == *" tests "* ]]; then
  timeout "${TEST_TIMEOUT:-300}" "$bundle/run_gpu_tests.sh" >"$out/gpu_tests.log" 2>&1
  rc=$?; echo "gpu tests + compute-sanitizer: exit $rc"; [ $rc = 0 ] || status=1
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |ERROR SUMMARY|RACECHECK SUMMARY|Failure|compute-sanitizer" "$out/gpu_tests.log" | head -30
fi
if [[ " $parts " == *" bench "* ]]; then
  (cd "$out" && timeout "${BENCH_TIMEOUT:-540}" "$bundle/run.sh" gpu_stencils --json-out "$out/gpu_stencils.json" ${BENCH_ARGS:-}) \
    >"$out/gpu_stencils.txt" 2>"$out/gpu_stencils.err"
  rc=$?; [ $rc = 0 ] || { status=1; echo "gpu_stencils: exit $rc"; tail -5 "$out/gpu_stencils.err"; }
  cat "$out/gpu_stencils.txt"
fi
exit $status
