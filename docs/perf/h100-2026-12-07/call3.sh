#!/usr/bin/env bash
# Call 3 (nvidia-h100-x1), session 46: the 16-byte 3-D single step in bands
# of rows of blocks sized by the L2 (plane_bands.hpp): the probe's band sweep
# at 512^3, 1024^3 and 1536^3 (plain order, fixed bands, the launch's own
# choice; bit-exact checks), then jacobi3d's benchmark rows without the sweep
# at the three sides, then the equality tests of the 3-D single step (a
# banded launch among them).
# Run from the repository root with the bundle carried:
#   bash docs/perf/h100-2026-12-07/call3.sh
set -uo pipefail
b=gpu-bundle
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
TRAPEZE_PROBE_ONLY="window band" timeout 200 $b/run.sh gpu_kernel_probe > $r/probe.txt 2>$r/probe-err.txt
echo "probe exit $? at $SECONDS s"
grep -E "window band|bands against" $r/probe.txt
STARPU_NCPU=2 timeout 150 $b/run.sh gpu_equality_test \
  --gtest_filter='GpuEquality.SingleStepsOnRowsOfFourCells:GpuEquality.Jacobi3D:GpuEquality.TrapezoidsOnRowsOfFourCells3D' > $r/equality.log 2>&1
echo "equality exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED)  \]' $r/equality.log | tr '\n' ' ')"
for side in 1024 512 1536; do
  left=$(( 580 - SECONDS )); [ $left -lt 40 ] && { echo "no time left for $side"; break; }
  timeout $left $b/run.sh gpu_stencils --apps jacobi3d --side-3d $side --rounds 3 --no-sweep \
    --json-out $r/jacobi3d-$side.json > $r/jacobi3d-$side.txt 2>$r/jacobi3d-$side-err.txt
  echo "jacobi3d $side exit $? at $SECONDS s"
  grep -E "^(kernels|copy|jacobi3d )" $r/jacobi3d-$side.txt
done
tar -C $OUT -czf $OUT/call3.tgz r && rm -rf $r
echo "seconds $SECONDS"
