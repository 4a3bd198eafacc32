#!/usr/bin/env bash
# Session 32, call 2: the scratch second buffer (session 28's patch) with a
# stage task allowed 3/8 of the GPU (bin/*-scr; the patch kept as
# scratch-3of8.patch) against 761991b (bin/jacobi2d, bin/cip), on an H200.
# Session 31 judged it on an H100, whose PCIe (26.8 GB/s a way, StarPU's
# calibration) bound the large-tile plans; the H200's is about twice that.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
{
  TRAPEZE_HOME=$PWD/trapeze-home-scr STARPU_LIMIT_CUDA_MEM=64 timeout 120 ./run.sh jacobi2d-scr --devices gpu --size 8192 --steps 100 --verify --json
  TRAPEZE_HOME=$PWD/trapeze-home-scr STARPU_LIMIT_CUDA_MEM=256 timeout 120 ./run.sh jacobi2d-scr --devices gpu --size 8192 --steps 200 --tile 4096x1024 --height 96 --verify --json
  TRAPEZE_HOME=$PWD/trapeze-home-scr STARPU_LIMIT_CUDA_MEM=80 timeout 120 ./run.sh cip-scr --devices gpu --size 4096 --steps 64 --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
J="--size 16384 --steps 512"; C="--size 16384 --steps 256"
PROFILES="cur|jacobi2d --size 1024 --steps 16;scr|jacobi2d-scr --size 1024 --steps 16;cur|cip --size 1024 --steps 16;scr|cip-scr --size 1024 --steps 16" \
CASES="j: in core|cur|0|jacobi2d $J
j: capped auto|cur|256|jacobi2d $J
j: scr capped auto|scr|256|jacobi2d-scr $J
j: scr capped 8192x1024 H96|scr|256|jacobi2d-scr $J --tile 8192x1024 --height 96
j: scr capped 4096x2048 H96|scr|256|jacobi2d-scr $J --tile 4096x2048 --height 96
j: scr capped 4096x2048 H128|scr|256|jacobi2d-scr $J --tile 4096x2048 --height 128
j: no cap 8192x1024 H96|cur|0|jacobi2d $J --tile 8192x1024 --height 96
c: in core|cur|0|cip $C
c: capped auto|cur|1280|cip $C
c: scr capped auto|scr|1280|cip-scr $C" ROUNDS=3 RUN_TIMEOUT=60 bash ./device_plans.sh
grep -o "\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|verify exit [0-9]*\|.*out of core.*" "$OUT/verify.txt" | cut -c1-200
