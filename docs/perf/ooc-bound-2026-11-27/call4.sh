#!/usr/bin/env bash
# Session 30, call 4 (bundle of 7c6d9a7): in core on one GPU the automatic
# plan is one tile, whose scatter, upload, download and gather run one after
# another around the stepping (call 3's timeline: 200 of 363 ms). Bands of
# tiles along the slowest dimension overlap them with the stepping: how many,
# at what run length? No cap.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
V="4 bands|--tile 16384x4096;8 bands|--tile 16384x2048;16 bands|--tile 16384x1024"
for steps in 512 2048; do
  OUT=$OUT/j$steps APP=jacobi2d SIZE=16384 STEPS=$steps CAP=0 ROUNDS=2 RUN_TIMEOUT=60 VARIANTS="$V" ./device_ooc_variants.sh > "$OUT/j$steps.txt" 2>&1
done
V="4 slabs|--tile 512x256x64;8 slabs|--tile 512x256x32;16 slabs|--tile 512x256x16"
for steps in 128 512; do
  OUT=$OUT/h$steps STEPS=$steps CAP=0 ROUNDS=2 RUN_TIMEOUT=60 VARIANTS="$V" ./device_ooc_variants.sh > "$OUT/h$steps.txt" 2>&1
done
V="4 bands|--tile 16384x4096;8 bands|--tile 16384x2048;16 bands|--tile 16384x1024"
OUT=$OUT/c APP=cip SIZE=16384 STEPS=256 CAP=0 ROUNDS=2 RUN_TIMEOUT=60 VARIANTS="$V" ./device_ooc_variants.sh > "$OUT/c.txt" 2>&1
for f in j512 j2048 h128 h512 c; do echo "== $f"; tail -5 "$OUT/$f.txt"; done
cat "$OUT"/*/no-report-* 2>/dev/null | head -20
