#!/usr/bin/env bash
# Call 5 (nvidia-h200), session 42: the committed tree (6918dd0: 4 rows a
# thread for jacobi2d's 2-D single step, 2 for HotSpot). The probe's 2-D
# single steps again (7 rounds), gpu_stencils h = 1 for jacobi2d, jacobi3d,
# hotspot and life, the GPU equality suite and memcheck on its sanitizer cases.
# Run from the repository root with the bundle carried: bash docs/perf/turnaround-knobs-2026-11-29/call5.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
TRAPEZE_PROBE_ROUNDS=7 TRAPEZE_PROBE_ONLY="vector-step,float4 a thread" \
  timeout 200 $b/run.sh gpu_kernel_probe 2>/dev/null | grep -vE "round [0-9]+ of" > $OUT/probe.txt
timeout 200 $b/run.sh gpu_stencils --apps jacobi2d,jacobi3d,hotspot,life --h1-only --rounds 3 --json-out $OUT/h1.json 2>&1 \
  | grep -E "^(app|jacobi2d|jacobi3d|hotspot|life|Trapeze) " > $OUT/h1.txt
export STARPU_NCPU=2
timeout 250 $b/run.sh gpu_equality_test --gtest_filter=-GpuSanitizer.* 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |tests ran|Failure" > $OUT/equality.txt
echo "exit ${PIPESTATUS[0]}" >> $OUT/equality.txt
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
STARPU_NCUDA=1 timeout 120 $b/run.sh "$sanitizer" --tool memcheck --error-exitcode 9 --print-limit 20 \
  $b/bin/gpu_equality_test --gtest_filter="GpuSanitizer.*" > $OUT/memcheck.txt 2>&1
echo "exit $?" >> $OUT/memcheck.txt
grep -E "vector-step|copy|xroof|bandwidth" $OUT/probe.txt
cat $OUT/h1.txt
tail -2 $OUT/equality.txt; grep -E "ERROR SUMMARY|PASSED|FAILED|exit" $OUT/memcheck.txt
