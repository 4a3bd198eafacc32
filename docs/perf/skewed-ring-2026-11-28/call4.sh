#!/usr/bin/env bash
# Session 36, call 4: the last pass's gathers counted apart from the task
# window (in call 3's trace the GPU waited for each gather in the last
# pass). This build against call 3's (himeno-e2a), interleaved, Himeno L
# 128 steps in core and under 448 MiB; GpuEquality.SkewedSlabs plain and
# under memcheck; --verify; FxT traces.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_HOME=$PWD/trapeze-home-n TRAPEZE_STALL_SECONDS=8
{
  STARPU_NCPU=4 timeout 120 ./run.sh gpu_equality_test --gtest_filter='GpuEquality.SkewedSlabs'; echo "plain exit $?"
  san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  STARPU_NCPU=4 timeout 200 ./run.sh "$san" --tool memcheck --error-exitcode 9 --print-limit 20 bin/gpu_equality_test --gtest_filter='GpuEquality.SkewedSlabs'; echo "memcheck exit $?"
} > "$OUT/log.txt" 2>&1
grep "OK \]\|FAILED \]\|exit\|ERROR SUMMARY" "$OUT/log.txt" | head -20
verify() {  # cap args...
  local cap=$1; shift
  local limit=(); [ "$cap" -gt 0 ] && limit=(STARPU_LIMIT_CUDA_MEM=$cap)
  out=$(env "${limit[@]}" timeout 30 ./run.sh "$@" --devices gpu --verify --json 2>&1); rc=$?
  printf '%-52s %4s MiB rc %s %s\n' "$*" "$cap" "$rc" "$(grep -o '"tile":"[^"]*"\|"height":[0-9]*\|"seconds":[0-9.]*\|"verified":[a-z]*\|error: no task' <<< "$out" | paste -sd' ')"
}
verify 448 himeno --size L --steps 40 --skew auto
verify 0 himeno --size L --steps 40 --skew auto
verify 96 himeno --size M --steps 40 --skew auto
verify 64 cip --size 2048 --steps 30 --skew auto
echo "verify done $(( $(date +%s) - start )) s"
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16;e|himeno-e2a --size S --steps 16" \
CASES="h: in core|n|0|himeno $H
h: skew auto in core|n|0|himeno $H --skew auto
h: e2a skew auto in core|e|0|himeno-e2a $H --skew auto
h: skew auto|n|448|himeno $H --skew auto
h: e2a skew auto|e|448|himeno-e2a $H --skew auto" ROUNDS=4 RUN_TIMEOUT=20 bash ./device_plans.sh 2>&1 | tail -8
STARPU_LIMIT_CUDA_MEM=448 timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-capped" 2>&1 | tail -1 | cut -c1-100
timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-in-core" 2>&1 | tail -1 | cut -c1-100
echo "total $(( $(date +%s) - start )) s"
