#!/usr/bin/env bash
# Call 4 (nvidia-h200), session 45: jacobi3d's automatic heights on larger
# cubes than the benchmark's 512^3 (call 3's scaling run stepped 2016^3 at
# 808.8 G cell updates/s on one H200, H 4 k 4, 1.52x the roofline, against
# 615.7 at 512^3): gpu_stencils with --side-3d 1024 and 1536 without the
# sweep, then 1024^3 with the sweep (auto against best, head to head) if
# time is left.
# Run from the repository root with the bundle carried:
#   bash docs/perf/hotspot-quads-2026-11-29/call4.sh
set -uo pipefail
b=gpu-bundle
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
for side in 1024 1536; do
  left=$(( 330 - SECONDS )); [ $left -lt 40 ] && break
  timeout $left $b/run.sh gpu_stencils --apps jacobi3d --side-3d $side --rounds 3 --no-sweep \
    --json-out $r/nosweep-$side.json > $r/nosweep-$side.txt 2>$r/nosweep-$side-err.txt
  echo "side $side no sweep exit $? at $SECONDS s" | tee -a $r/nosweep-$side.txt
  grep -E "^jacobi3d " $r/nosweep-$side.txt
done
left=$(( 340 - SECONDS ))
if [ $left -gt 60 ]; then
  timeout $left $b/run.sh gpu_stencils --apps jacobi3d --side-3d 1024 --rounds 3 \
    --json-out $r/sweep-1024.json > $r/sweep-1024.txt 2>$r/sweep-1024-err.txt
  echo "side 1024 sweep exit $? at $SECONDS s" | tee -a $r/sweep-1024.txt
  grep -E "^jacobi3d " $r/sweep-1024.txt
fi
tar -C $OUT -czf $OUT/call4.tgz r && rm -rf $r
echo "seconds $SECONDS"
