#!/usr/bin/env bash
# Call 3 (nvidia-h200), session 43: the tree with the 3-D step's mapping of
# 6d7f75d kept (calls 1 and 2's were slower). The probe's by-hand 3-D
# kernel on rows 520 cells apart (16-byte groups, rows not on 128-byte
# lines) beside its aligned rows and the runtime's window; then the GPU
# label's four suites (run_gpu_tests.sh's first part; call 4 runs the MPI
# test and the sanitizers).
# Run from the repository root with the bundle carried: bash docs/perf/packed-lanes-2026-11-29/call3.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
TRAPEZE_PROBE_ROUNDS=5 TRAPEZE_PROBE_ONLY="w1x4 r3 p4 window,4 rows x 4 planes,2 rows x 4 planes,1 plane a thread" \
  timeout 120 $b/run.sh gpu_kernel_probe 2>$OUT/probe-err.txt | grep -E "jacobi3d  (vector-plane|copy-planes|float4-planes)|differ" > $OUT/probe.txt
echo "probe exit ${PIPESTATUS[0]} at $SECONDS s" | tee -a $OUT/probe.txt
cat $OUT/probe.txt
export STARPU_NCPU=2
for suite in "gpu_equality_test --gtest_filter=-GpuSanitizer.*" gpu_sweep_test gpu_wavefront_test gpu_layout_test; do
  left=$(( 560 - SECONDS ))
  [ $left -lt 20 ] && { echo "no time left for $suite"; continue; }
  timeout $left $b/run.sh $suite > $OUT/$(echo $suite | cut -d' ' -f1).log 2>&1
  echo "$suite exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED)  \]' $OUT/$(echo $suite | cut -d' ' -f1).log | tr '\n' ' ')"
done | tee $OUT/suites.txt
grep -h "^\[  FAILED  \]" $OUT/*.log | head
