#!/usr/bin/env bash
# Call 8 (nvidia-h200), session 42: the window policy as the 3-D step's
# default (3 rows x 4 planes). The GPU equality tests that run 3-D star
# stencils on rows of four cells, memcheck on the sanitizer cases, and
# gpu_stencils' jacobi3d plain loop and h = 1, this build against 6918dd0's
# (gpu_stencils_6918dd0) alternating.
# Run from the repository root with the bundle carried: bash docs/perf/turnaround-knobs-2026-11-29/call8.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
export STARPU_NCPU=2
timeout 100 $b/run.sh gpu_equality_test \
  --gtest_filter='GpuEquality.Jacobi3D:GpuEquality.SingleStepsOnRowsOfFourCells:GpuEquality.TrapezoidsOnRowsOfFourCells3D:GpuEquality.LargeTilesManyBlocks:GpuEquality.CpuAndGpuWorkersTogether' 2>&1 \
  | grep -E "^\[ +(OK|FAILED|PASSED) |tests ran|Failure" > $OUT/equality.txt
echo "exit ${PIPESTATUS[0]}" >> $OUT/equality.txt
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
STARPU_NCUDA=1 timeout 90 $b/run.sh "$sanitizer" --tool memcheck --error-exitcode 9 --print-limit 20 \
  $b/bin/gpu_equality_test --gtest_filter="GpuSanitizer.*" > $OUT/memcheck.txt 2>&1
echo "exit $?" >> $OUT/memcheck.txt
unset STARPU_NCPU
for round in 1 2; do
  for build in gpu_stencils gpu_stencils_6918dd0; do
    echo "== round $round $build" >> $OUT/stencils.txt
    timeout 60 $b/run.sh $build --apps jacobi3d --h1-only --rounds 3 2>&1 | grep -E "^jacobi3d " >> $OUT/stencils.txt
  done
done
cat $OUT/equality.txt; grep -E "ERROR SUMMARY|PASSED|FAILED|exit" $OUT/memcheck.txt
cat $OUT/stencils.txt
