#!/usr/bin/env bash
# Session 33, call 4: band copies between the grid and the tiles shared
# among the CPU workers rounding up (this tree) against one thread a band
# (bin/*-copy1: TRAPEZE_COPY_THREADS=1, what the rule before gave 8 bands on
# 15 workers), in core and capped; the automatic plans against in core.
# The tree: dfc77f3 with copy-threads-round-up.patch (not adopted).
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
J="--size 16384 --steps 512"; C="--size 16384 --steps 256"; H="--size L --steps 128"
PROFILES="n|jacobi2d --size 1024 --steps 16;n|cip --size 1024 --steps 16;n|himeno --size S --steps 16" \
CASES="j: in core|n|0|jacobi2d $J
j: in core copy1|n|0|jacobi2d-copy1 $J
j: auto|n|256|jacobi2d $J
j: auto copy1|n|256|jacobi2d-copy1 $J
j: 8192x1024 H128|n|256|jacobi2d $J --tile 8192x1024 --height 128
c: in core|n|0|cip $C
c: in core copy1|n|0|cip-copy1 $C
c: auto|n|1280|cip $C
c: auto copy1|n|1280|cip-copy1 $C
h: in core|n|0|himeno $H
h: in core copy1|n|0|himeno-copy1 $H
h: auto|n|448|himeno $H" ROUNDS=3 RUN_TIMEOUT=25 bash ./device_plans.sh
export TRAPEZE_HOME=$PWD/trapeze-home-n
{
  STARPU_LIMIT_CUDA_MEM=64 timeout 60 ./run.sh jacobi2d --devices gpu --size 8192 --steps 100 --verify --json
  STARPU_LIMIT_CUDA_MEM=80 timeout 60 ./run.sh cip --devices gpu --size 4096 --steps 64 --verify --json
  STARPU_LIMIT_CUDA_MEM=56 timeout 60 ./run.sh himeno --devices gpu --size M --steps 40 --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
grep -o "\"app\":\"[a-z0-9]*\"\|\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|\"height\":[0-9]*\|verify exit [0-9]*" "$OUT/verify.txt" | paste -sd' '
echo "total $(( $(date +%s) - start )) s"
