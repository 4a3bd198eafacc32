#!/usr/bin/env bash
# Session 29, call 7 (bundle of 4f661ec): Himeno's two capped plans kept in
# core (no cap) and capped: is the larger tile's lead compute or streaming?
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
V="128x64x64 H16|--tile 128x64x64 --height 16;128x128x64 H8|--tile 128x128x64 --height 8"
OUT=$OUT/core CAP=0 ROUNDS=2 RUN_TIMEOUT=90 VARIANTS="$V" ./device_ooc_variants.sh > "$OUT/core.txt" 2>&1
OUT=$OUT/cap ROUNDS=2 RUN_TIMEOUT=90 VARIANTS="$V" ./device_ooc_variants.sh > "$OUT/cap.txt" 2>&1
for f in core cap; do echo "== $f"; tail -5 "$OUT/$f.txt"; done
ls "$OUT"/*/no-report-* 2>/dev/null | head; cat "$OUT"/*/no-report-* 2>/dev/null | head -20
