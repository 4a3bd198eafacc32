#!/usr/bin/env bash
# Call 3 (any one GPU), session 47, on the last device time: the 2-D GPU
# profile on a 4096 x 16384 tile (gpu_height_profile.hpp) instead of 4096^2,
# after call 1's life-words chose 16/4 at 0.826 of the best (32/8). Issue
# 9's benchmark for life-words, then jacobi2d and hotspot (whose choices
# the new profile also moves), one app a command.
#   bash docs/perf/life-words-2026-12-07/call3.sh
set -uo pipefail
D=${DEADLINE:-585}
b=gpu-bundle
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
for app in life-words jacobi2d hotspot; do
  left=$(( D - SECONDS ))
  [ $left -lt 15 ] && { echo "no time left for $app"; continue; }
  timeout $left $b/run.sh gpu_stencils --apps $app --rounds 3 --json-out $r/$app.json > $r/$app.txt 2>$r/$app-err.txt
  echo "$app exit $? at $SECONDS s"
  grep -E "^(kernels|copy|$app )" $r/$app.txt
  tar -C $OUT -czf $OUT/call3.tgz r
done
echo "seconds $SECONDS"
