#!/usr/bin/env bash
# Session 34, call 1: branch next/band-ends (3c2efee: long-row tiles offered,
# the first scatter and the last gather counted in the out-of-core tile
# choice, band copies on band_copy_threads) against main (690e33e,
# bin/*-main, home m), capped to a quarter and in core, each build's capped
# run against its own in-core run; 8192x1024 H128 by hand as the contender.
# Profiles of both homes come back as homes.tar.gz (offline harness).
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
J="--size 16384 --steps 512"; C="--size 16384 --steps 256"; H="--size L --steps 128"
PROFILES="n|jacobi2d --size 1024 --steps 16;n|cip --size 1024 --steps 16;n|himeno --size S --steps 16;m|jacobi2d-main --size 1024 --steps 16;m|cip-main --size 1024 --steps 16;m|himeno-main --size S --steps 16" \
CASES="j: in core|n|0|jacobi2d $J
j: auto|n|256|jacobi2d $J
j: in core main|m|0|jacobi2d-main $J
j: auto main|m|256|jacobi2d-main $J
j: 8192x1024 H128|n|256|jacobi2d $J --tile 8192x1024 --height 128
c: in core|n|0|cip $C
c: auto|n|1280|cip $C
c: in core main|m|0|cip-main $C
c: auto main|m|1280|cip-main $C
h: in core|n|0|himeno $H
h: auto|n|448|himeno $H
h: in core main|m|0|himeno-main $H
h: auto main|m|448|himeno-main $H" ROUNDS=3 RUN_TIMEOUT=25 bash ./device_plans.sh
tar czf "$OUT/homes.tar.gz" trapeze-home-n trapeze-home-m 2>/dev/null
export TRAPEZE_HOME=$PWD/trapeze-home-n
{
  STARPU_LIMIT_CUDA_MEM=64 timeout 60 ./run.sh jacobi2d --devices gpu --size 8192 --steps 100 --verify --json
  STARPU_LIMIT_CUDA_MEM=80 timeout 60 ./run.sh cip --devices gpu --size 4096 --steps 64 --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
grep -o "\"app\":\"[a-z0-9]*\"\|\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|\"height\":[0-9]*\|verify exit [0-9]*" "$OUT/verify.txt" | paste -sd' '
echo "total $(( $(date +%s) - start )) s"
