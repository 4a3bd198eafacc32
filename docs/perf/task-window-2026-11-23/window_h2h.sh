#!/bin/bash
# Interleaved head-to-head: default window against everything submitted up front.
cd /work/main
out=/tmp/window_h2h.txt; : > $out
for round in 1 2 3 4 5; do
  for w in 0 1000000000; do
    for case in "--size 64 --tile 16x16 --height 1 --steps 10000" "--size 1024 --tile 256x256 --height 1 --steps 2000" "--size 2048 --tile 512x512 --height 4 --steps 2000"; do
      s=$(./build/apps/jacobi2d $case --window $w --json | python3 -c "import json,sys; print(json.load(sys.stdin)['seconds'])")
      echo "$round|$w|$case|$s" >> $out
    done
  done
done
