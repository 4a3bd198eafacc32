#!/usr/bin/env bash
# Session 38, call 4: the scatter tasks one after another, each on every CPU
# worker's core (himeno), against the tree of call 2 (himeno-prev: every
# slab's scatter a task on one core, side by side). Himeno L 128 steps
# --skew auto in core and under 448 MiB, 3 rounds interleaved; --verify.
set -uo pipefail
cd gpu-bundle
start=$(date +%s)
export TRAPEZE_STALL_SECONDS=8
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16;p|himeno-prev --size S --steps 16" \
CASES="h: ordered in core|n|0|himeno $H --skew auto
h: prev in core|p|0|himeno-prev $H --skew auto
h: ordered capped|n|448|himeno $H --skew auto
h: prev capped|p|448|himeno-prev $H --skew auto" ROUNDS=3 RUN_TIMEOUT=25 bash ./device_plans.sh 2>&1 | tail -6
echo "plans done at $(( $(date +%s) - start )) s"
export TRAPEZE_HOME=$PWD/trapeze-home-n
for cap in 448 0; do
  limit=(); [ "$cap" -gt 0 ] && limit=(STARPU_LIMIT_CUDA_MEM=$cap)
  out=$(env "${limit[@]}" timeout 40 ./run.sh himeno --size L --steps 40 --skew auto --devices gpu --verify --json 2>&1)
  echo "verify cap $cap rc $? $(grep -o '"verified":[a-z]*' <<< "$out")"
done 2>&1 | tee "$OUT/verify.txt"
echo "total $(( $(date +%s) - start )) s"
