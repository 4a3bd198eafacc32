#!/usr/bin/env bash
# Session 30, call 1 (bundle of 7c6d9a7): how a capped run's cost grows with
# the step count (jacobi2d at 4x the usual 512 steps; Himeno at 128 and 512),
# then the whole GPU label and compute-sanitizer (the plane trapezoid changed
# in 0eb060a).
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
OUT=$OUT/j2048 APP=jacobi2d SIZE=16384 STEPS=2048 CAP=256 ROUNDS=3 RUN_TIMEOUT=60 VARIANTS="auto|" ./device_ooc_variants.sh > "$OUT/j2048.txt" 2>&1
for steps in 128 512; do
  OUT=$OUT/h$steps STEPS=$steps ROUNDS=2 RUN_TIMEOUT=60 VARIANTS="auto|" ./device_ooc_variants.sh > "$OUT/h$steps.txt" 2>&1
done
timeout 300 ./run_gpu_tests.sh > "$OUT/gpu_tests.txt" 2>&1
echo "run_gpu_tests.sh: exit $?" | tee -a "$OUT/gpu_tests.txt"
echo "GPU tests: $(grep -cE '^\[       OK' "$OUT/gpu_tests.txt") OK, $(grep -cE '^\[  FAILED  \] [A-Z]' "$OUT/gpu_tests.txt") FAILED lines; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/gpu_tests.txt" | sort | uniq -c | tr '\n' ' ')"
grep -E '^\[  FAILED  \] [A-Z]|FAIL:' "$OUT/gpu_tests.txt" | head
for f in j2048 h128 h512; do echo "== $f"; tail -4 "$OUT/$f.txt"; done
