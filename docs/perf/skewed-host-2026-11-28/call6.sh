#!/usr/bin/env bash
# Session 35, call 6: the final tree's GpuEquality.SkewedSlabs, plain and
# under memcheck; the same test built with the clamped ring's mirror writes
# removed (gpu_equality_test-broken) must fail; Himeno L --skew auto
# --verify under 448 MiB.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_HOME=$PWD/trapeze-home-n TRAPEZE_STALL_SECONDS=15
{
  STARPU_NCPU=4 timeout 120 ./run.sh gpu_equality_test --gtest_filter='GpuEquality.SkewedSlabs'; echo "plain exit $?"
  san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  STARPU_NCPU=4 timeout 200 ./run.sh "$san" --tool memcheck --error-exitcode 9 --print-limit 20 bin/gpu_equality_test --gtest_filter='GpuEquality.SkewedSlabs'; echo "memcheck exit $?"
  STARPU_NCPU=4 timeout 120 ./run.sh gpu_equality_test-broken --gtest_filter='GpuEquality.SkewedSlabs'; echo "broken exit $? (must not be 0)"
} > "$OUT/gpu-tests.txt" 2>&1
grep "OK \]\|FAILED \]\|exit\|ERROR SUMMARY" "$OUT/gpu-tests.txt" | head -20
STARPU_LIMIT_CUDA_MEM=448 timeout 25 ./run.sh himeno --devices gpu --size L --steps 40 --skew auto --verify --json > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
grep -o "\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|verify exit [0-9]*\|error.*" "$OUT/verify.txt" | paste -sd' '
echo "total $(( $(date +%s) - start )) s"
