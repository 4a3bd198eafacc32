#!/usr/bin/env bash
# Call 5 (nvidia-h200), session 44: the 16-byte 2-D trapezoid's policy. Call
# 4's sweep had 4 warps a block at 4 blocks a multiprocessor (w4 b4) at 3.49x
# the roofline against the first default's 3.37x (w8 b2) at k = 8; here the
# two head to head (probe, 5 interleaved rounds) with a few neighbours, the
# tree with w4 b4 as the default through the 2-D GPU equality tests, and
# gpu_stencils' jacobi2d with it (gpu_stencils) against call 4's build
# (gpu_stencils_w8), alternating, without the sweep.
# Run from the repository root with the bundle carried:
#   bash docs/perf/rows-sixteen-2026-11-29/call5.sh
set -uo pipefail
b=gpu-bundle
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
TRAPEZE_PROBE_ROUNDS=5 TRAPEZE_PROBE_ONLY="row-vec-trapezoid w8 p256 b2 a2,row-vec-trapezoid w4,row-vec-trapezoid w2" \
  timeout 120 $b/run.sh gpu_kernel_probe > $r/probe-all.txt 2>$r/probe-err.txt
echo "probe exit $? at $SECONDS s" | tee -a $r/probe-all.txt
grep -E "^jacobi2d  row|row-vec-trapezoid against" $r/probe-all.txt | tee $r/probe.txt
export STARPU_NCPU=2
timeout 60 $b/run.sh gpu_equality_test --gtest_filter='GpuEquality.TrapezoidsOnRowsOfFourCells2D:GpuEquality.LargeTilesManyBlocks' 2>&1 \
  | grep -E "^\[ +(OK|FAILED|PASSED) |tests ran|Failure" > $r/equality.txt
echo "equality exit ${PIPESTATUS[0]} at $SECONDS s" >> $r/equality.txt
unset STARPU_NCPU
cat $r/equality.txt
for round in 1 2 3; do
  for build in gpu_stencils gpu_stencils_w8; do
    left=$(( 300 - SECONDS )); [ $left -lt 30 ] && break 2
    echo "== round $round $build" >> $r/stencils.txt
    timeout $left $b/run.sh $build --apps jacobi2d --rounds 3 --no-sweep --json-out $r/$build-$round.json 2>$r/$build-$round-err.txt \
      | grep -E "^jacobi2d " >> $r/stencils.txt
  done
done
cat $r/stencils.txt
tar -C $OUT -czf $OUT/call5.tgz r && rm -rf $r
echo "seconds $SECONDS"
