#!/usr/bin/env bash
# Session 32, call 5: issue 11's three capped runs with ghost zones filled in
# host memory, the GPU model's stage task allowed a third of the GPU, and the
# profile made without a cap first (call 4's build profiled under a capped
# --verify run and chose H 7, k 1 in core). Automatic plans of this tree,
# in core against capped, plus jacobi2d's best hand plan of call 4.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
J="jacobi2d --size 16384 --steps 512"; C="cip --size 16384 --steps 256"; H="himeno --size L --steps 128"
PROFILES="n|jacobi2d --size 1024 --steps 16;n|cip --size 1024 --steps 16;n|himeno --size S --steps 16" \
CASES="j: in core|n|0|$J
j: capped auto|n|256|$J
j: capped 4096x2048 H128 k12|n|256|$J --tile 4096x2048 --height 128 --kernel-height 12
c: in core|n|0|$C
c: capped auto|n|1280|$C
h: in core|n|0|$H
h: capped auto|n|448|$H" ROUNDS=3 RUN_TIMEOUT=40 bash ./device_plans.sh
export TRAPEZE_HOME=$PWD/trapeze-home-n
{
  STARPU_LIMIT_CUDA_MEM=64 timeout 60 ./run.sh jacobi2d --devices gpu --size 8192 --steps 100 --verify --json
  STARPU_LIMIT_CUDA_MEM=80 timeout 60 ./run.sh cip --devices gpu --size 4096 --steps 64 --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
grep -o "\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|\"height\":[0-9]*\|verify exit [0-9]*\|.*out of core.*" "$OUT/verify.txt" | cut -c1-200
