#!/usr/bin/env bash
# Session 30, call 2 (bundle of 7c6d9a7): at 2048 steps jacobi2d capped ran
# at 0.656 of in core (call 1). Is the loss the capped plan itself (tiles of
# 2048² at H 228: ghost recompute, small launches) or the streaming? The
# same plans without a cap, then capped; and plans with less recompute.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
V="auto plan|--tile 2048x2048 --height 228;H128|--tile 2048x2048 --height 128;8192x1024 H96|--tile 8192x1024 --height 96;4096x1024 H64|--tile 4096x1024 --height 64"
for cap in 0 256; do
  OUT=$OUT/j$cap APP=jacobi2d SIZE=16384 STEPS=2048 CAP=$cap ROUNDS=2 RUN_TIMEOUT=60 VARIANTS="$V" ./device_ooc_variants.sh > "$OUT/j$cap.txt" 2>&1
done
V="auto plan|--tile 128x64x64 --height 16"
OUT=$OUT/h0 STEPS=512 CAP=0 ROUNDS=2 RUN_TIMEOUT=60 VARIANTS="$V" ./device_ooc_variants.sh > "$OUT/h0.txt" 2>&1
for f in j0 j256 h0; do echo "== $f"; tail -6 "$OUT/$f.txt"; done
cat "$OUT"/*/no-report-* 2>/dev/null | head -20
