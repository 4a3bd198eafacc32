#!/usr/bin/env bash
# Session 29, call 3 (bundle of 0eb060a): larger jacobi2d tiles under the
# quarter cap; Himeno's best hand plan, its neighbours.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
OUT=$OUT/j APP=jacobi2d SIZE=16384 STEPS=512 CAP=256 ROUNDS=4 RUN_TIMEOUT=60 VARIANTS="auto|;2048² H180|--tile 2048x2048 --height 180;4096x2048 H180|--tile 4096x2048 --height 180;4096x2048 H120|--tile 4096x2048 --height 120;2896² H180|--tile 2896x2896 --height 180;2896² H144|--tile 2896x2896 --height 144" ./device_ooc_variants.sh > "$OUT/j.txt" 2>&1
OUT=$OUT/h ROUNDS=2 RUN_TIMEOUT=60 VARIANTS="auto|;128x128x32 H12|--tile 128x128x32 --height 12;128x128x32 H16|--tile 128x128x32 --height 16;128x128x32 H10|--tile 128x128x32 --height 10;128x128x48 H12|--tile 128x128x48 --height 12;128x128x64 H12|--tile 128x128x64 --height 12" ./device_ooc_variants.sh > "$OUT/h.txt" 2>&1
for f in j h; do echo "== $f"; tail -9 "$OUT/$f.txt"; done
