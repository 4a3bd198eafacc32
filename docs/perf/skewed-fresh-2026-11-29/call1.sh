#!/usr/bin/env bash
# Session 38, call 1: a diagnostic build of SkewedRun with two switches.
#   TRAPEZE_DIAG_FRESH=1: a slab's end-parity buffer is invalidated before the
#     task that copies the slab out of the ring (StarPU then allocates it on
#     the GPU without uploading its stale values; a no-op init codelet).
#   TRAPEZE_DIAG_KEEP=K: a pass that is not the run's last does not mark
#     wont_use the K slabs beyond its last task's window, which the next
#     pass (zig-zag) reads first.
# Himeno L 128 steps --skew auto, in core and under 448 MiB, 4 rounds
# interleaved; --verify; GpuEquality.SkewedSlabs plain and under memcheck.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
for v in f0k0:0:0 f1k0:1:0 f1k2:1:2 f1k4:1:4 f1k6:1:6; do
  IFS=: read -r name f k <<< "$v"
  printf '#!/usr/bin/env bash\nTRAPEZE_DIAG_FRESH=%s TRAPEZE_DIAG_KEEP=%s exec "$(dirname "$0")/himeno" "$@"\n' "$f" "$k" > bin/himeno-$name
  chmod +x bin/himeno-$name
done
export TRAPEZE_HOME=$PWD/trapeze-home-n TRAPEZE_STALL_SECONDS=8
for v in f1k0 f1k4; do for cap in 448 0; do
  limit=(); [ "$cap" -gt 0 ] && limit=(STARPU_LIMIT_CUDA_MEM=$cap)
  out=$(env "${limit[@]}" timeout 40 ./run.sh himeno-$v --size L --steps 40 --skew auto --devices gpu --verify --json 2>&1)
  echo "verify $v cap $cap rc $? $(grep -o '"verified":[a-z]*' <<< "$out")"
done; done 2>&1 | tee "$OUT/log.txt"
{
  TRAPEZE_DIAG_FRESH=1 STARPU_NCPU=4 timeout 120 ./run.sh gpu_equality_test --gtest_filter='GpuEquality.SkewedSlabs'; echo "plain exit $?"
  san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  TRAPEZE_DIAG_FRESH=1 STARPU_NCPU=4 timeout 200 ./run.sh "$san" --tool memcheck --error-exitcode 9 --print-limit 20 bin/gpu_equality_test --gtest_filter='GpuEquality.SkewedSlabs'; echo "memcheck exit $?"
} > "$OUT/tests.txt" 2>&1
grep "OK \]\|FAILED \]\|exit\|ERROR SUMMARY" "$OUT/tests.txt" | head -20
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16" \
CASES="h: base in core|n|0|himeno-f0k0 $H --skew auto
h: fresh in core|n|0|himeno-f1k0 $H --skew auto
h: base capped|n|448|himeno-f0k0 $H --skew auto
h: fresh capped|n|448|himeno-f1k0 $H --skew auto
h: fresh keep2 capped|n|448|himeno-f1k2 $H --skew auto
h: fresh keep4 capped|n|448|himeno-f1k4 $H --skew auto
h: fresh keep6 capped|n|448|himeno-f1k6 $H --skew auto" ROUNDS=4 RUN_TIMEOUT=25 bash ./device_plans.sh 2>&1 | tail -9
echo "total $(( $(date +%s) - start )) s"
