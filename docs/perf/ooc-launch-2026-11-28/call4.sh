#!/usr/bin/env bash
# Session 32, call 4: out of core, ghost zones filled in host memory from the
# neighbours' tiles (this tree: bin/jacobi2d, cip, himeno) against strips
# that live on the GPU between passes (bin/*-prev, 761991b), issue 11's three
# capped runs and jacobi2d's larger tiles by hand, on an H200. Each build has
# its own GPU profile; interleaved rounds, medians; checks first.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
export TRAPEZE_HOME=$PWD/trapeze-home-n; mkdir -p "$TRAPEZE_HOME"
{
  STARPU_LIMIT_CUDA_MEM=64 timeout 120 ./run.sh jacobi2d --devices gpu --size 8192 --steps 100 --verify --json
  STARPU_LIMIT_CUDA_MEM=256 timeout 120 ./run.sh jacobi2d --devices gpu --size 8192 --steps 150 --tile 4096x1024 --height 96 --boundary periodic --verify --json
  STARPU_LIMIT_CUDA_MEM=80 timeout 120 ./run.sh cip --devices gpu --size 4096 --steps 64 --verify --json
  STARPU_LIMIT_CUDA_MEM=56 timeout 120 ./run.sh himeno --devices gpu --size M --steps 40 --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
timeout 150 ./run.sh gpu_equality_test --gtest_filter='GpuEquality.StreamedTiles' > "$OUT/gpu-test.txt" 2>&1; echo "gpu test exit $?" >> "$OUT/gpu-test.txt"
unset TRAPEZE_HOME
J="jacobi2d --size 16384 --steps 512"; C="--size 16384 --steps 256"; H="--size L --steps 128"
PROFILES="n|jacobi2d --size 1024 --steps 16;p|jacobi2d-prev --size 1024 --steps 16;n|cip --size 1024 --steps 16;p|cip-prev --size 1024 --steps 16;n|himeno --size S --steps 16;p|himeno-prev --size S --steps 16" \
CASES="j: in core|n|0|$J
j: capped auto|n|256|$J
j: prev capped auto|p|256|jacobi2d-prev --size 16384 --steps 512
j: 2048 H180 k12|n|256|$J --tile 2048x2048 --height 180 --kernel-height 12
j: 8192x1024 H96 k12|n|256|$J --tile 8192x1024 --height 96 --kernel-height 12
j: 4096x2048 H128 k12|n|256|$J --tile 4096x2048 --height 128 --kernel-height 12
c: in core|n|0|cip $C
c: capped auto|n|1280|cip $C
c: prev capped auto|p|1280|cip-prev $C
h: in core|n|0|himeno $H
h: capped auto|n|448|himeno $H
h: prev capped auto|p|448|himeno-prev $H" ROUNDS=3 RUN_TIMEOUT=60 bash ./device_plans.sh
grep -o "\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|verify exit [0-9]*\|.*out of core.*" "$OUT/verify.txt" | cut -c1-200
grep -E "PASSED|FAILED|exit" "$OUT/gpu-test.txt"
