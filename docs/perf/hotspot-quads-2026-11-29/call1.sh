#!/usr/bin/env bash
# Call 1 (nvidia-h200), session 45: HotSpot through the 16-byte 2-D trapezoid
# (its power map read a group a step). The probe's hotspot variants and its
# bit-exact checks against the register trapezoid; the 2-D GPU equality tests
# with HotSpot on rows of 4 cells; then gpu_stencils' hotspot alternating three
# builds without the sweep: this tree (gpu_stencils, w8 b2), this tree with
# HotSpot's launches at one block a multiprocessor (gpu_stencils_b1, w8 b1: no
# spills at k = 6 and 8) and 2115ef9 (gpu_stencils_2115ef9, the register
# trapezoid), each with its own TRAPEZE_HOME so its height profile stays
# cached; last this tree's full sweep (auto against best, head to head).
# Run from the repository root with the bundle carried:
#   bash docs/perf/hotspot-quads-2026-11-29/call1.sh
set -uo pipefail
b=gpu-bundle
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
TRAPEZE_PROBE_ROUNDS=5 TRAPEZE_PROBE_ONLY="hotspot" timeout 150 $b/run.sh gpu_kernel_probe > $r/probe-all.txt 2>$r/probe-err.txt
echo "probe exit $? at $SECONDS s" | tee -a $r/probe-all.txt
grep -E "^hotspot |against reg-trapezoid|copy bandwidth" $r/probe-all.txt | tee $r/probe.txt
export STARPU_NCPU=2
timeout 90 $b/run.sh gpu_equality_test \
  --gtest_filter='GpuEquality.TrapezoidsOnRowsOfFourCells2D:GpuEquality.Hotspot:GpuEquality.SingleStepsOnRowsOfFourCells' 2>&1 \
  | grep -E "^\[ +(OK|FAILED|PASSED) |tests ran|Failure" > $r/equality.txt
echo "equality exit ${PIPESTATUS[0]} at $SECONDS s" >> $r/equality.txt
unset STARPU_NCPU
cat $r/equality.txt
for round in 1 2; do
  for build in gpu_stencils gpu_stencils_b1 gpu_stencils_2115ef9; do
    left=$(( 470 - SECONDS )); [ $left -lt 40 ] && break 2
    mkdir -p $b/home-$build
    echo "== round $round $build" >> $r/stencils.txt
    TRAPEZE_HOME=$PWD/$b/home-$build timeout $left $b/run.sh $build --apps hotspot --rounds 3 --no-sweep \
      --json-out $r/$build-$round.json 2>$r/$build-$round-err.txt | grep -E "^hotspot " >> $r/stencils.txt
  done
done
cat $r/stencils.txt
left=$(( 585 - SECONDS ))
if [ $left -gt 60 ]; then
  TRAPEZE_HOME=$PWD/$b/home-gpu_stencils timeout $left $b/run.sh gpu_stencils --apps hotspot --rounds 3 \
    --json-out $r/sweep.json > $r/sweep.txt 2>$r/sweep-err.txt
  echo "sweep exit $? at $SECONDS s" >> $r/sweep.txt
  grep -E "^hotspot |exit" $r/sweep.txt
fi
tar -C $OUT -czf $OUT/call1.tgz r && rm -rf $r
echo "seconds $SECONDS"
