#!/usr/bin/env bash
# Session 29, call 5 (bundle of 4f661ec): Himeno's blocking factor swept on
# its automatic capped tile against the automatic choice; jacobi2d capped
# against in core, more rounds.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
OUT=$OUT/h ROUNDS=3 RUN_TIMEOUT=60 VARIANTS="auto|;H8|--tile 128x64x64 --height 8;H12|--tile 128x64x64 --height 12;H16|--tile 128x64x64 --height 16;H20|--tile 128x64x64 --height 20;H24|--tile 128x64x64 --height 24;128x128x64 H8|--tile 128x128x64 --height 8" ./device_ooc_variants.sh > "$OUT/h.txt" 2>&1
OUT=$OUT/j APP=jacobi2d SIZE=16384 STEPS=512 CAP=256 ROUNDS=6 RUN_TIMEOUT=60 VARIANTS="auto|" ./device_ooc_variants.sh > "$OUT/j.txt" 2>&1
for f in h j; do echo "== $f"; tail -10 "$OUT/$f.txt"; done
