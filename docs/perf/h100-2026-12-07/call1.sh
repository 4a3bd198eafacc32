#!/usr/bin/env bash
# Call 1 (nvidia-h100-x1), session 46: issue 9's benchmark on one H100 at
# today's defaults (the 16-byte 2-D trapezoid for jacobi2d and HotSpot, the
# 16-byte 3-D trapezoid on rows of 16 cells, jacobi3d at 1024^3; none of these
# had run on an H100), one app a command so a time limit loses one row; then
# the 3-D single step in bands of y (VectorPlanePolicy's YBand) against the
# unbanded launch, 512^3 and 1024^3, with its bit-exact checks.
# Run from the repository root with the bundle carried:
#   bash docs/perf/h100-2026-12-07/call1.sh
set -uo pipefail
b=gpu-bundle
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
for app in jacobi2d jacobi3d hotspot life life-bits pathfinder; do
  left=$(( 470 - SECONDS ))
  [ $left -lt 50 ] && { echo "no time left for $app"; continue; }
  timeout $left $b/run.sh gpu_stencils --apps $app --rounds 3 --json-out $r/$app.json > $r/$app.txt 2>$r/$app-err.txt
  echo "$app exit $? at $SECONDS s"
  grep -E "^(kernels|copy|$app )" $r/$app.txt
done
left=$(( 585 - SECONDS ))
if [ $left -gt 40 ]; then
  TRAPEZE_PROBE_ONLY="p4 window, rows 528,p4 window band,p4 window, 1024" timeout $left $b/run.sh gpu_kernel_probe > $r/probe.txt 2>$r/probe-err.txt
  echo "probe exit $? at $SECONDS s"
  grep -E "window|band|differ" $r/probe.txt | head -20
fi
tar -C $OUT -czf $OUT/call1.tgz r && rm -rf $r
echo "seconds $SECONDS"
