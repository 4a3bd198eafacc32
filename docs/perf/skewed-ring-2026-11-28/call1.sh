#!/usr/bin/env bash
# Session 36, call 1: the ring window (a task copies in only its new slab and
# out only its finished ones). GpuEquality.SkewedSlabs plain and under
# memcheck; --verify runs; Himeno L 128 steps in core and under 448 MiB,
# this build against main's (himeno-prev, session 35's scratch window),
# interleaved; CIP and jacobi2d beside; an FxT trace of the capped run.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_HOME=$PWD/trapeze-home-n TRAPEZE_STALL_SECONDS=15
{
  STARPU_NCPU=4 timeout 120 ./run.sh gpu_equality_test --gtest_filter='GpuEquality.SkewedSlabs'; echo "plain exit $?"
  san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  STARPU_NCPU=4 timeout 200 ./run.sh "$san" --tool memcheck --error-exitcode 9 --print-limit 20 bin/gpu_equality_test --gtest_filter='GpuEquality.SkewedSlabs'; echo "memcheck exit $?"
} > "$OUT/gpu-tests.txt" 2>&1
grep "OK \]\|FAILED \]\|exit\|ERROR SUMMARY" "$OUT/gpu-tests.txt" | head -20
echo "tests done $(( $(date +%s) - start )) s"
{
  STARPU_LIMIT_CUDA_MEM=96 timeout 25 ./run.sh himeno --devices gpu --size M --steps 40 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=448 timeout 25 ./run.sh himeno --devices gpu --size L --steps 40 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=448 timeout 25 ./run.sh himeno --devices gpu --size L --steps 50 --skew 2:43 --verify --json
  timeout 25 ./run.sh himeno --devices gpu --size L --steps 40 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=64 timeout 25 ./run.sh jacobi3d --devices gpu --size 256 --steps 30 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=64 timeout 25 ./run.sh cip --devices gpu --size 2048 --steps 30 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=32 timeout 25 ./run.sh jacobi2d --devices gpu --size 4096 --steps 60 --skew auto --verify --json
} > "$OUT/verify.txt" 2>&1
grep -o "\"app\":\"[a-z0-9]*\"\|\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|\"height\":[0-9]*\|\"seconds\":[0-9.]*\|error.*\|no task.*" "$OUT/verify.txt" | paste -sd' '
echo "verify done $(( $(date +%s) - start )) s"
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16;p|himeno-prev --size S --steps 16" \
CASES="h: in core|n|0|himeno $H
h: skew auto in core|n|0|himeno $H --skew auto
h: prev skew auto in core|p|0|himeno-prev $H --skew auto
h: skew auto|n|448|himeno $H --skew auto
h: prev skew auto|p|448|himeno-prev $H --skew auto
h: skew 2:32|n|448|himeno $H --skew 2:32
h: skew 2:43|n|448|himeno $H --skew 2:43" ROUNDS=3 RUN_TIMEOUT=20 bash ./device_plans.sh
STARPU_LIMIT_CUDA_MEM=448 timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-capped" 2>&1 | tail -1 | cut -c1-200
echo "total $(( $(date +%s) - start )) s"
