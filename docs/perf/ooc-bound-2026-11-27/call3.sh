#!/usr/bin/env bash
# Session 30, call 3 (bundle of 7c6d9a7): without a cap, jacobi2d's capped
# plan (2048² tiles, H 228, k 12) ran at 0.670 of in core and 8192x1024 at
# H 96 at 0.890 (call 2), where the model predicted 0.78 and 0.88. FxT
# timelines of the three plans, 512 steps, no cap, to see where the GPU
# waits; and the GPU model's profile (task and launch costs).
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
run() { ./run.sh jacobi2d --devices gpu --size 16384 --steps 512 --json "$@" 2>&1 | grep '^{' | tail -1; }
run > /dev/null   # profiles the GPU (cached in trapeze-home)
for round in 1 2; do
  for plan in "core|" "t2048|--tile 2048x2048 --height 228 --kernel-height 12" "t8192|--tile 8192x1024 --height 96 --kernel-height 12"; do
    read -r -a args <<< "${plan#*|}"
    trace=()
    [ "$round" = 2 ] && trace=(--trace "$OUT/${plan%%|*}")
    echo "{\"plan\": \"${plan%%|*}\", \"round\": $round, \"report\": $(run "${args[@]}" "${trace[@]}")}" >> "$OUT/plans.jsonl"
  done
done
mkdir -p "$OUT/home" && cp -r trapeze-home/. "$OUT/home/"
du -sh "$OUT"/*
python3 -c "
import json
for l in open('$OUT/plans.jsonl'):
    r = json.loads(l); p = r['report']
    print(r['plan'], r['round'], p['seconds'], p['tiles'], p['height'], p['kernel_height'], p['predicted_seconds_per_step'] * p['steps'])
"
