#!/usr/bin/env bash
# Session 35, call 3: --skew auto with a 0.9 share of the GPU and at least
# 32 slabs where their width allows (one slab of Himeno L in core ran 2.9x
# slower in call 2). Himeno L 128 steps in core (trapezoids, skewed 8:32,
# 8:128, 16:128, auto) and under 448 MiB (auto, 4:32); --verify; FxT traces
# of the automatic runs, capped and in core.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_HOME=$PWD/trapeze-home-n TRAPEZE_STALL_SECONDS=15
{
  STARPU_LIMIT_CUDA_MEM=96 timeout 25 ./run.sh himeno --devices gpu --size M --steps 40 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=448 timeout 25 ./run.sh himeno --devices gpu --size L --steps 40 --skew auto --verify --json
  timeout 25 ./run.sh himeno --devices gpu --size L --steps 40 --skew auto --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
grep -o "\"app\":\"[a-z0-9]*\"\|\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|\"height\":[0-9]*\|\"seconds\":[0-9.]*\|verify exit [0-9]*\|error.*\|no task.*" "$OUT/verify.txt" | paste -sd' '
echo "verify done $(( $(date +%s) - start )) s"
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16" \
CASES="h: in core|n|0|himeno $H
h: skew 8:32 in core|n|0|himeno $H --skew 8:32
h: skew 8:128 in core|n|0|himeno $H --skew 8:128
h: skew 16:128 in core|n|0|himeno $H --skew 16:128
h: skew auto in core|n|0|himeno $H --skew auto
h: skew auto|n|448|himeno $H --skew auto
h: skew 4:32|n|448|himeno $H --skew 4:32" ROUNDS=3 RUN_TIMEOUT=20 bash ./device_plans.sh
STARPU_LIMIT_CUDA_MEM=448 timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-capped" 2>&1 | tail -1 | cut -c1-200
timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-in-core" 2>&1 | tail -1 | cut -c1-200
echo "total $(( $(date +%s) - start )) s"
