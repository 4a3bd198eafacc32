#!/usr/bin/env bash
# Session 36, call 3: the ring build with finished slabs RW (W stalled under
# caps, call 2). GpuEquality.SkewedSlabs plain and under memcheck; --verify
# runs under caps; Himeno L 128 steps in core and under 448 MiB against
# main's build (himeno-prev), interleaved; an FxT trace of the capped run;
# then whether the trapezoid plans' small-cap stalls are the same W effect
# (jacobi2d-diag, cip-diag, himeno-diag: TRAPEZE_DIAG_STRIPS_RW=1 makes a
# stage task's output strips RW); then CIP and jacobi2d beside their
# default plans.
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
echo "tests done $(( $(date +%s) - start )) s"
verify() {  # cap args...
  local cap=$1; shift
  out=$(STARPU_LIMIT_CUDA_MEM=$cap timeout 30 ./run.sh "$@" --devices gpu --verify --json 2>&1); rc=$?
  printf '%-60s %4s MiB rc %s %s\n' "$*" "$cap" "$rc" "$(grep -o '"tile":"[^"]*"\|"height":[0-9]*\|"seconds":[0-9.]*\|"verified":[a-z]*\|"pcie_bytes":[0-9.e+]*\|error: no task' <<< "$out" | paste -sd' ')"
}
verify 96 himeno --size M --steps 40 --skew auto
verify 56 himeno --size M --steps 40 --skew auto
verify 448 himeno --size L --steps 40 --skew auto
verify 448 himeno --size L --steps 50 --skew 2:43
verify 0 himeno --size L --steps 40 --skew auto
verify 64 jacobi3d --size 256 --steps 30 --skew auto
verify 64 cip --size 2048 --steps 30 --skew auto
verify 24 cip --size 2048 --steps 30 --skew auto
verify 32 jacobi2d --size 4096 --steps 60 --skew auto
verify 16 jacobi2d --size 4096 --steps 60 --skew auto
echo "verify done $(( $(date +%s) - start )) s"
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16;p|himeno-prev --size S --steps 16" \
CASES="h: in core|n|0|himeno $H
h: skew auto in core|n|0|himeno $H --skew auto
h: prev skew auto in core|p|0|himeno-prev $H --skew auto
h: skew auto|n|448|himeno $H --skew auto
h: prev skew auto|p|448|himeno-prev $H --skew auto
h: skew 2:32|n|448|himeno $H --skew 2:32
h: skew 2:43|n|448|himeno $H --skew 2:43
h: skew 4:32|n|448|himeno $H --skew 4:32" ROUNDS=3 RUN_TIMEOUT=20 bash ./device_plans.sh 2>&1 | tail -12
STARPU_LIMIT_CUDA_MEM=448 timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-capped" 2>&1 | tail -1 | cut -c1-100
echo "himeno done $(( $(date +%s) - start )) s"
export TRAPEZE_STALL_SECONDS=6
for v in "" 1; do
  for c in "32 jacobi2d-diag --size 4096 --steps 60" "16 jacobi2d-diag --size 4096 --steps 60" "24 cip-diag --size 2048 --steps 30" "56 himeno-diag --size M --steps 40"; do
    read -r cap prog args <<< "$c"
    out=$(env ${v:+TRAPEZE_DIAG_STRIPS_RW=1} STARPU_LIMIT_CUDA_MEM=$cap timeout 30 ./run.sh $prog $args --devices gpu --verify --json 2>&1); rc=$?
    printf 'trapezoids strips %-2s %-44s %3s MiB rc %s %s\n' "${v:-W}" "$prog $args" "$cap" "$rc" "$(grep -o '"tile":"[^"]*"\|"height":[0-9]*\|"seconds":[0-9.]*\|"verified":[a-z]*\|error: no task' <<< "$out" | paste -sd' ')"
  done
done
echo "diag done $(( $(date +%s) - start )) s"
PROFILES="n|cip --size 2048 --steps 16;n|jacobi2d --size 2048 --steps 16" \
CASES="c: in core|n|0|cip --size 16384 --steps 256
c: skew auto in core|n|0|cip --size 16384 --steps 256 --skew auto
c: skew auto|n|1280|cip --size 16384 --steps 256 --skew auto
j: in core|n|0|jacobi2d --size 16384 --steps 512
j: capped|n|256|jacobi2d --size 16384 --steps 512
j: skew auto in core|n|0|jacobi2d --size 16384 --steps 512 --skew auto
j: skew auto|n|256|jacobi2d --size 16384 --steps 512 --skew auto" ROUNDS=2 RUN_TIMEOUT=20 ROWS=apps.jsonl timeout 200 bash ./device_plans.sh 2>&1 | tail -10
echo "total $(( $(date +%s) - start )) s"
