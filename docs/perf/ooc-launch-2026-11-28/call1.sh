#!/usr/bin/env bash
# Session 32, call 1 (bundle of 761991b): does a smaller kernel height k make
# jacobi2d's out-of-core 2048^2 tiles (H 180) step faster? Their launches are
# small, so the walk is split into short segments whose start-up (2 r k rows)
# weighs more at larger k. No cap (the plan's stepping) and capped to 256 MiB.
# Also Himeno L capped with 981756d's tile rule, and capped --verify runs.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
export TRAPEZE_HOME=$PWD/trapeze-home-cur; mkdir -p "$TRAPEZE_HOME"
./run.sh jacobi2d --devices gpu --size 1024 --steps 16 > /dev/null 2>&1
./run.sh himeno --devices gpu --size S --steps 16 > /dev/null 2>&1
{
  STARPU_LIMIT_CUDA_MEM=56 timeout 120 ./run.sh himeno --devices gpu --size M --steps 40 --verify --json
  STARPU_LIMIT_CUDA_MEM=64 timeout 120 ./run.sh jacobi2d --devices gpu --size 8192 --steps 100 --verify --json
  STARPU_LIMIT_CUDA_MEM=256 timeout 120 ./run.sh jacobi2d --devices gpu --size 4096 --steps 64 --tile 2048x2048 --height 30 --kernel-height 6 --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
J="jacobi2d --size 16384 --steps 512"; T="--tile 2048x2048 --height 180"
CASES="j: in core|cur|0|$J
j: 2048 H180 k4|cur|0|$J $T --kernel-height 4
j: 2048 H180 k6|cur|0|$J $T --kernel-height 6
j: 2048 H180 k8|cur|0|$J $T --kernel-height 8
j: 2048 H180 k12|cur|0|$J $T --kernel-height 12
j: 2048 H180 k16|cur|0|$J $T --kernel-height 16
j: capped auto|cur|256|$J
j: capped k6|cur|256|$J $T --kernel-height 6
j: capped k8|cur|256|$J $T --kernel-height 8
h: in core|cur|0|himeno --size L --steps 128
h: capped auto|cur|448|himeno --size L --steps 128" ROUNDS=3 RUN_TIMEOUT=60 bash ./device_plans.sh
grep -h '"verified"\|verify exit' "$OUT/verify.txt" | cut -c1-300
