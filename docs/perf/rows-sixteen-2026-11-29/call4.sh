#!/usr/bin/env bash
# Call 4 (nvidia-h200), session 44: the 16-byte 2-D trapezoid
# (codelets/cuda/row_vector_trapezoid_kernel.cuh, new): the probe's variants
# against the scalar register trapezoid, bit for bit against it under every
# boundary, the 2-D GPU equality tests and memcheck on GpuSanitizer.*, then
# gpu_stencils' jacobi2d (full sweep) with this tree against 128c530's build
# (gpu_stencils_base), alternating. Everything lands in one archive (a run
# returns a handful of files).
# Run from the repository root with the bundle carried:
#   bash docs/perf/rows-sixteen-2026-11-29/call4.sh
set -uo pipefail
b=gpu-bundle
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
TRAPEZE_PROBE_ROUNDS=3 TRAPEZE_PROBE_ONLY="row-vec-trapezoid,default (t256" \
  timeout 150 $b/run.sh gpu_kernel_probe > $r/probe-all.txt 2>$r/probe-err.txt
echo "probe exit $? at $SECONDS s" | tee -a $r/probe-all.txt
grep -E "^jacobi2d |row-vec-trapezoid against" $r/probe-all.txt | tee $r/probe.txt
export STARPU_NCPU=2
timeout 150 $b/run.sh gpu_equality_test --gtest_filter='GpuEquality.TrapezoidsOnRowsOfFourCells2D:GpuEquality.Jacobi2DFloat:GpuEquality.LargeTilesManyBlocks:GpuEquality.SingleStepsOnRowsOfFourCells' 2>&1 \
  | grep -E "^\[ +(OK|FAILED|PASSED) |tests ran|Failure" > $r/equality.txt
echo "equality exit ${PIPESTATUS[0]} at $SECONDS s" >> $r/equality.txt
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
STARPU_NCUDA=1 timeout 60 $b/run.sh "$san" --tool memcheck --error-exitcode 9 --print-limit 20 \
  $b/bin/gpu_equality_test --gtest_filter="GpuSanitizer.*" > $r/memcheck.txt 2>&1
echo "memcheck exit $? at $SECONDS s" >> $r/memcheck.txt
unset STARPU_NCPU
cat $r/equality.txt; grep -E "ERROR SUMMARY|exit" $r/memcheck.txt
for round in 1 2 3; do
  for build in gpu_stencils gpu_stencils_base; do
    left=$(( 570 - SECONDS )); [ $left -lt 45 ] && break 2
    echo "== round $round $build" >> $r/stencils.txt
    timeout $left $b/run.sh $build --apps jacobi2d --rounds 3 --json-out $r/$build-$round.json 2>$r/$build-$round-err.txt \
      | grep -E "^jacobi2d " >> $r/stencils.txt
  done
done
cat $r/stencils.txt
tar -C $OUT -czf $OUT/call4.tgz r && rm -rf $r
echo "seconds $SECONDS"
