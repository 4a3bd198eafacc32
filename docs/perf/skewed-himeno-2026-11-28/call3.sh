#!/usr/bin/env bash
# Session 34, call 3: SkewedRun (skewed slabs through StarPU, --skew) on the
# GPU: correctness under caps (--verify), then Himeno L 128 steps capped to a
# quarter (448 MiB) against in core and the automatic trapezoids; himeno-main
# is 690e33e (no constants_at_cell_only on Himeno: the trait's effect on the
# in-core kernels).
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_HOME=$PWD/trapeze-home-n
{
  STARPU_LIMIT_CUDA_MEM=56 timeout 60 ./run.sh himeno --devices gpu --size M --steps 40 --skew 2:8 --verify --json
  STARPU_LIMIT_CUDA_MEM=16 timeout 60 ./run.sh jacobi2d --devices gpu --size 4096 --steps 100 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=16 timeout 60 ./run.sh jacobi3d --devices gpu --size 256 --steps 30 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=24 timeout 60 ./run.sh cip --devices gpu --size 2048 --steps 40 --skew auto --verify --json
  timeout 60 ./run.sh himeno --devices gpu --size M --steps 41 --skew 5:7 --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
grep -o "\"app\":\"[a-z0-9]*\"\|\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|\"height\":[0-9]*\|\"seconds\":[0-9.]*\|verify exit [0-9]*\|error.*" "$OUT/verify.txt" | paste -sd' '
echo "verify done $(( $(date +%s) - start )) s"
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16;m|himeno-main --size S --steps 16" \
CASES="h: in core|n|0|himeno $H
h: in core main|m|0|himeno-main $H
h: trapezoids auto|n|448|himeno $H
h: skew auto|n|448|himeno $H --skew auto
h: skew 2:30|n|448|himeno $H --skew 2:30
h: skew 4:20|n|448|himeno $H --skew 4:20
h: skew 8:32 in core|n|0|himeno $H --skew 8:32" ROUNDS=3 RUN_TIMEOUT=40 bash ./device_plans.sh
echo "total $(( $(date +%s) - start )) s"
