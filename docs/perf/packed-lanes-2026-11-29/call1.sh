#!/usr/bin/env bash
# Call 1 (nvidia-h200), session 43: the 16-byte 3-D step with every lane
# committing (a warp's lanes run along a row's groups and on into the next
# rows; vector_plane_item). The 3-D GPU equality tests and memcheck, then the
# probe's 3-D step against 6d7f75d's (warps of 30 committed groups), and
# gpu_stencils' jacobi3d plain loop and h = 1 against 6d7f75d's, alternating.
# Run from the repository root with the bundle carried: bash docs/perf/packed-lanes-2026-11-29/call1.sh
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
cat $OUT/equality.txt; grep -E "ERROR SUMMARY|PASSED|FAILED|exit" $OUT/memcheck.txt
for round in 1 2; do
  echo "== round $round new" >> $OUT/probe.txt
  TRAPEZE_PROBE_ROUNDS=5 TRAPEZE_PROBE_ONLY="window,w4 r2 p1,4 rows x 4 planes,1 plane a thread" \
    timeout 120 $b/run.sh gpu_kernel_probe 2>>$OUT/probe-err.txt | grep -E "jacobi3d  (vector-plane|copy-planes|float4-planes)|differ" >> $OUT/probe.txt
  echo "== round $round 6d7f75d" >> $OUT/probe.txt
  TRAPEZE_PROBE_ROUNDS=5 TRAPEZE_PROBE_ONLY="w1x4 r3 p4 window,w1x4 r2 p1,4 rows x 4 planes,1 plane a thread" \
    timeout 120 $b/run.sh gpu_kernel_probe_6d7f75d 2>>$OUT/probe-err.txt | grep -E "jacobi3d  (vector-plane|copy-planes|float4-planes)" >> $OUT/probe.txt
  cat $OUT/probe.txt | tail -25
  [ $SECONDS -gt 380 ] && break
done
for round in 1 2; do
  for build in gpu_stencils gpu_stencils_6d7f75d; do
    echo "== round $round $build" >> $OUT/stencils.txt
    timeout 60 $b/run.sh $build --apps jacobi3d --h1-only --rounds 3 2>&1 | grep -E "^jacobi3d " >> $OUT/stencils.txt
  done
  [ $SECONDS -gt 520 ] && break
done
cat $OUT/stencils.txt
echo "seconds $SECONDS"
