#!/usr/bin/env bash
# Session 37, call 3: on one GPU the ring is memory of its own (no handle)
# and the skewed tasks run in worker order, each task's kernels queued on
# the stream behind the one before's; against call 1's build (himeno-zz:
# the ring a handle every task holds RW, so each task waited for the one
# before to end). Himeno L 128 steps in core and under 448 MiB, interleaved,
# 4 rounds; GpuEquality.SkewedSlabs plain and under memcheck; --verify
# under caps; an FxT trace of the capped run.
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
  printf '%-52s %4s MiB rc %s %s\n' "$*" "$cap" "$rc" "$(grep -o '"skewed":"[^"]*"\|"seconds":[0-9.]*\|"verified":[a-z]*\|error: no task' <<< "$out" | paste -sd' ')"
}
{
verify 448 himeno --size L --steps 40 --skew auto
verify 96 himeno --size M --steps 40 --skew 2:9
verify 64 cip --size 2048 --steps 30 --skew auto
verify 64 jacobi3d --size 256 --steps 30 --skew auto
echo "verify done $(( $(date +%s) - start )) s"
} | tee -a "$OUT/log.txt"
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16;z|himeno-zz --size S --steps 16" \
CASES="h: skew auto in core|n|0|himeno $H --skew auto
h: zz skew auto in core|z|0|himeno-zz $H --skew auto
h: 4:32 in core|n|0|himeno $H --skew 4:32
h: zz 4:32 in core|z|0|himeno-zz $H --skew 4:32
h: skew auto capped|n|448|himeno $H --skew auto
h: zz skew auto capped|z|448|himeno-zz $H --skew auto" ROUNDS=4 RUN_TIMEOUT=25 bash ./device_plans.sh 2>&1 | tail -8
STARPU_LIMIT_CUDA_MEM=448 timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-capped" 2>&1 | tail -1 | cut -c1-100
echo "total $(( $(date +%s) - start )) s"
