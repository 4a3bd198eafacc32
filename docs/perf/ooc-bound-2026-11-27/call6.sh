#!/usr/bin/env bash
# Session 30, call 6 (bundle of 103bb63): issue 11's three capped runs
# against today's in-core plans (8 bands on one GPU for these short runs),
# head to head, automatic plans.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
OUT=$OUT/j APP=jacobi2d SIZE=16384 STEPS=512 CAP=256 ROUNDS=3 RUN_TIMEOUT=60 VARIANTS="auto|" ./device_ooc_variants.sh > "$OUT/j.txt" 2>&1
OUT=$OUT/h STEPS=128 ROUNDS=3 RUN_TIMEOUT=60 VARIANTS="auto|" ./device_ooc_variants.sh > "$OUT/h.txt" 2>&1
OUT=$OUT/c APP=cip SIZE=16384 STEPS=256 CAP=1280 ROUNDS=3 RUN_TIMEOUT=60 VARIANTS="auto|" ./device_ooc_variants.sh > "$OUT/c.txt" 2>&1
for f in j h c; do echo "== $f"; tail -3 "$OUT/$f.txt"; done
cat "$OUT"/*/no-report-* 2>/dev/null | head -20
