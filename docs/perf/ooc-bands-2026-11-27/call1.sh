#!/usr/bin/env bash
# Session 29, call 1: the band order (this tree) against ebd74d2 (bin/*-prev),
# one fixed plan and automatic plans; Himeno's capped plans (tile shapes).
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
OUT=$OUT/a PLAN="--height 180 --kernel-height 12" ROUNDS=4 ./device_ooc_builds.sh > "$OUT/a.txt" 2>&1
OUT=$OUT/c ROUNDS=2 VARIANTS="auto|;H8|--height 8;slab8 H4|--tile 256x256x8 --height 4;slab12 H6|--tile 256x256x12 --height 6;128x128x32 H8|--tile 128x128x32 --height 8;32x32x512 H8|--tile 32x32x512 --height 8;128x64x64 H8|--tile 128x64x64 --height 8" ./device_ooc_variants.sh > "$OUT/c.txt" 2>&1
OUT=$OUT/d ROUNDS=3 ./device_ooc_builds.sh > "$OUT/d.txt" 2>&1
OUT=$OUT/b APP=himeno SIZE=L STEPS=128 CAP=448 ROUNDS=2 BUILDS="himeno himeno-prev" PROFILE_SIZE=S RUN_TIMEOUT=60 ./device_ooc_builds.sh > "$OUT/b.txt" 2>&1
OUT=$OUT/e APP=jacobi2d SIZE=16384 STEPS=512 CAP=256 ROUNDS=3 VARIANTS="auto|;H144|--height 144;H168|--height 168;H192|--height 192;H216|--height 216" ./device_ooc_variants.sh > "$OUT/e.txt" 2>&1
for f in a c d b e; do echo "== $f"; tail -12 "$OUT/$f.txt"; done
