#!/usr/bin/env bash
# Session 35, call 2: the skewed CUDA task with one launch a step (a clamped
# ring written by the edge cells' threads, skewed_step) against call 1's
# build (himeno-prev: a ring launch before every step); GpuEquality.SkewedSlabs
# and memcheck again; --verify under caps; Himeno L 128 steps: in core
# (trapezoids, skewed 8:32, skewed auto) and under 448 MiB (skewed auto both
# builds, 2:32, 2:43, 4:32).
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
grep "OK \]\|FAILED\|exit\|ERROR SUMMARY" "$OUT/gpu-tests.txt"
echo "tests done $(( $(date +%s) - start )) s"
{
  STARPU_LIMIT_CUDA_MEM=96 timeout 25 ./run.sh himeno --devices gpu --size M --steps 40 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=448 timeout 25 ./run.sh himeno --devices gpu --size L --steps 40 --skew 2:32 --verify --json
  STARPU_LIMIT_CUDA_MEM=64 timeout 25 ./run.sh jacobi3d --devices gpu --size 256 --steps 30 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=24 timeout 25 ./run.sh cip --devices gpu --size 2048 --steps 40 --skew 64:8 --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
grep -o "\"app\":\"[a-z0-9]*\"\|\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|\"height\":[0-9]*\|\"seconds\":[0-9.]*\|verify exit [0-9]*\|error.*\|no task.*" "$OUT/verify.txt" | paste -sd' '
echo "verify done $(( $(date +%s) - start )) s"
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16;p|himeno-prev --size S --steps 16" \
CASES="h: in core|n|0|himeno $H
h: skew 8:32 in core|n|0|himeno $H --skew 8:32
h: skew auto in core|n|0|himeno $H --skew auto
h: skew auto|n|448|himeno $H --skew auto
h: skew auto, call 1 build|p|448|himeno-prev $H --skew auto
h: skew 2:32|n|448|himeno $H --skew 2:32
h: skew 2:43|n|448|himeno $H --skew 2:43
h: skew 4:32|n|448|himeno $H --skew 4:32" ROUNDS=3 RUN_TIMEOUT=20 bash ./device_plans.sh
echo "total $(( $(date +%s) - start )) s"
