#!/usr/bin/env bash
# Call 7 (nvidia-h200), session 43: 3-D GPU tiles with rows a multiple of 16
# cells (gpu_tile_ghost: 512-wide tiles 528 cells apart, the x ghost 8; call
# 6: the 3-D step 0.922 there against 0.844 on 516). The 3-D GPU equality
# tests and memcheck, then gpu_stencils' jacobi3d (plain loop, h = 1) against
# 6d7f75d's build (rows 516 apart, the same kernel), alternating, and the
# probe's 3-D step on the tiles' rows.
# Run from the repository root with the bundle carried: bash docs/perf/packed-lanes-2026-11-29/call7.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
export STARPU_NCPU=2
timeout 100 $b/run.sh gpu_equality_test \
  --gtest_filter='GpuEquality.Jacobi3D:GpuEquality.SingleStepsOnRowsOfFourCells:GpuEquality.TrapezoidsOnRowsOfFourCells3D:GpuEquality.LargeTilesManyBlocks:GpuEquality.CpuAndGpuWorkersTogether' 2>&1 \
  | grep -E "^\[ +(OK|FAILED|PASSED) |tests ran|Failure" > $OUT/equality.txt
echo "exit ${PIPESTATUS[0]}" >> $OUT/equality.txt
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
STARPU_NCUDA=1 timeout 60 $b/run.sh "$sanitizer" --tool memcheck --error-exitcode 9 --print-limit 20 \
  $b/bin/gpu_equality_test --gtest_filter="GpuSanitizer.*" > $OUT/memcheck.txt 2>&1
echo "exit $?" >> $OUT/memcheck.txt
unset STARPU_NCPU
cat $OUT/equality.txt; grep -E "ERROR SUMMARY|PASSED|FAILED|exit" $OUT/memcheck.txt
echo "tests done at $SECONDS s"
for round in 1 2 3; do
  for build in gpu_stencils gpu_stencils_6d7f75d; do
    echo "== round $round $build" >> $OUT/stencils.txt
    timeout 60 $b/run.sh $build --apps jacobi3d --h1-only --rounds 3 2>&1 | grep -E "^jacobi3d " >> $OUT/stencils.txt
  done
  [ $SECONDS -gt 170 ] && break
done
cat $OUT/stencils.txt
TRAPEZE_PROBE_ROUNDS=3 TRAPEZE_PROBE_ONLY="w1x4 r3 p4 window,1 plane a thread" \
  timeout $(( 280 - SECONDS )) $b/run.sh gpu_kernel_probe 2>$OUT/probe-err.txt | grep -E "jacobi3d  (vector-plane|copy-planes)|528 apart against" > $OUT/probe.txt
cat $OUT/probe.txt
echo "seconds $SECONDS"
