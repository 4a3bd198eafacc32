#!/usr/bin/env bash
# Session 34, call 5: SkewedRun with its slabs in StarPU's memory alone,
# scattered and gathered by CPU tasks (one a slab) beside the GPU's tasks
# instead of by one thread before and after. Himeno L 128 steps under 448 MiB
# against in core and the automatic trapezoids; --verify under moderate caps.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_HOME=$PWD/trapeze-home-n TRAPEZE_STALL_SECONDS=15
{
  STARPU_LIMIT_CUDA_MEM=96 timeout 20 ./run.sh himeno --devices gpu --size M --steps 40 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=64 timeout 20 ./run.sh jacobi3d --devices gpu --size 256 --steps 30 --skew auto --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
grep -o "\"app\":\"[a-z0-9]*\"\|\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|\"height\":[0-9]*\|\"seconds\":[0-9.]*\|verify exit [0-9]*\|error.*\|no task.*" "$OUT/verify.txt" | paste -sd' '
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16" \
CASES="h: in core|n|0|himeno $H
h: trapezoids auto|n|448|himeno $H
h: skew auto|n|448|himeno $H --skew auto
h: skew 4:16|n|448|himeno $H --skew 4:16
h: skew 8:32 in core|n|0|himeno $H --skew 8:32" ROUNDS=3 RUN_TIMEOUT=20 bash ./device_plans.sh
echo "total $(( $(date +%s) - start )) s"
