#!/usr/bin/env bash
# Call 4 (nvidia-h200), session 42: the 2-D 16-byte single step with 4 rows a
# thread by default (radius 1, one field; call 3: 0.920 of the copy roofline
# against 0.880 for 2). Head to head in the probe (7 rounds: the default, rows
# 1, 2 and 8; HotSpot with 2 and 4), then gpu_stencils' plain loop and h = 1 for
# jacobi2d and HotSpot, this build against the one before (rows 2,
# gpu_stencils_rows2) alternating, then the GPU equality suite and memcheck
# on its sanitizer cases.
# Run from the repository root with the bundle carried: bash docs/perf/turnaround-knobs-2026-11-29/call4.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
TRAPEZE_PROBE_ROUNDS=7 TRAPEZE_PROBE_ONLY="vector-step,float4 a thread" \
  timeout 200 $b/run.sh gpu_kernel_probe > $OUT/probe.txt 2> $OUT/probe-err.txt
echo "exit $?" >> $OUT/probe.txt
for round in 1 2; do
  for build in gpu_stencils gpu_stencils_rows2; do
    echo "== round $round $build" >> $OUT/stencils.txt
    timeout 150 $b/run.sh $build --apps jacobi2d,hotspot --h1-only --rounds 3 --json-out $OUT/$build-$round.json 2>&1 \
      | grep -E "^(jacobi2d|hotspot) " >> $OUT/stencils.txt
  done
done
export STARPU_NCPU=2
timeout 300 $b/run.sh gpu_equality_test --gtest_filter=-GpuSanitizer.* 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |tests ran|Failure" > $OUT/equality.txt
echo "exit ${PIPESTATUS[0]}" >> $OUT/equality.txt
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
STARPU_NCUDA=1 timeout 200 $b/run.sh "$sanitizer" --tool memcheck --error-exitcode 9 --print-limit 20 \
  $b/bin/gpu_equality_test --gtest_filter="GpuSanitizer.*" > $OUT/memcheck.txt 2>&1
echo "exit $?" >> $OUT/memcheck.txt
grep -vE "round [0-9]+ of" $OUT/probe.txt | grep -E "vector-step|copy|xroof|exit|bandwidth"
cat $OUT/stencils.txt
tail -3 $OUT/equality.txt; grep -E "ERROR SUMMARY|PASSED|FAILED|exit" $OUT/memcheck.txt
