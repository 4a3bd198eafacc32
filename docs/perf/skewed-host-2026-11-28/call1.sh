#!/usr/bin/env bash
# Session 35, call 1: SkewedRun with its slabs' host memory allocated and
# pinned in its constructor (as StencilRun's tiles are) instead of by StarPU
# inside the timed run. First GPU run of GpuEquality.SkewedSlabs and of the
# skewed CUDA task under compute-sanitizer; --verify under caps; Himeno L 128
# steps under 448 MiB against in core and the automatic trapezoids; one FxT
# trace of the automatic skewed run.
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
  STARPU_LIMIT_CUDA_MEM=56 timeout 25 ./run.sh himeno --devices gpu --size M --steps 40 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=64 timeout 25 ./run.sh jacobi3d --devices gpu --size 256 --steps 30 --skew auto --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
grep -o "\"app\":\"[a-z0-9]*\"\|\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|\"height\":[0-9]*\|\"seconds\":[0-9.]*\|verify exit [0-9]*\|error.*\|no task.*" "$OUT/verify.txt" | paste -sd' '
echo "verify done $(( $(date +%s) - start )) s"
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16" \
CASES="h: in core|n|0|himeno $H
h: trapezoids auto|n|448|himeno $H
h: skew auto|n|448|himeno $H --skew auto
h: skew 4:16|n|448|himeno $H --skew 4:16
h: skew 8:32 in core|n|0|himeno $H --skew 8:32" ROUNDS=3 RUN_TIMEOUT=20 bash ./device_plans.sh
STARPU_LIMIT_CUDA_MEM=448 timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-skew-auto" 2>&1 | tail -1 | cut -c1-300
ls -la "$OUT/trace-skew-auto" 2>/dev/null | head
echo "total $(( $(date +%s) - start )) s"
