#!/usr/bin/env bash
# Session 37, call 1: skewed passes in zig-zag (odd passes run down the
# axis; at a turn the next pass takes the last task's slabs over in the
# ring, nothing goes home or comes back) against session 36's last build
# (himeno-prev, cip-prev: 6f63944), interleaved: Himeno L 128 steps and CIP
# 16384² 256 steps, in core and under a quarter cap; GpuEquality.SkewedSlabs
# plain and under memcheck; --verify under caps; FxT traces.
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
verify 448 himeno --size L --steps 40 --skew 4:7
verify 96 himeno --size M --steps 40 --skew auto
verify 64 cip --size 2048 --steps 30 --skew auto
verify 64 jacobi3d --size 256 --steps 30 --skew auto
echo "verify done $(( $(date +%s) - start )) s"
} | tee -a "$OUT/log.txt"
H="--size L --steps 128"
C="--size 16384 --steps 256"
PROFILES="n|himeno --size S --steps 16;p|himeno-prev --size S --steps 16;n|cip --size 1024 --steps 16;p|cip-prev --size 1024 --steps 16" \
CASES="h: skew auto in core|n|0|himeno $H --skew auto
h: prev skew auto in core|p|0|himeno-prev $H --skew auto
h: skew auto capped|n|448|himeno $H --skew auto
h: prev skew auto capped|p|448|himeno-prev $H --skew auto
h: 2:43 capped|n|448|himeno $H --skew 2:43
c: skew auto in core|n|0|cip $C --skew auto
c: prev skew auto in core|p|0|cip-prev $C --skew auto
c: skew auto capped|n|1280|cip $C --skew auto
c: prev skew auto capped|p|1280|cip-prev $C --skew auto" ROUNDS=4 RUN_TIMEOUT=30 bash ./device_plans.sh 2>&1 | tail -11
STARPU_LIMIT_CUDA_MEM=448 timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-capped" 2>&1 | tail -1 | cut -c1-100
echo "total $(( $(date +%s) - start )) s"
