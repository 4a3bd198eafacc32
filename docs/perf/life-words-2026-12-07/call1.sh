#!/usr/bin/env bash
# Call 1 (nvidia-h100-x1), session 47: Life's byte cells four to a word
# (apps/stencils/life_byte_words.hpp) and the 16-byte 2-D trapezoid on 3x3
# boxes (row_vector_trapezoid_kernel.cuh): their GPU tests first, then issue
# 9's benchmark for life (bytes one at a time), life-words and life-bits, one
# app a command; then the rest of the GPU label on this tree (session 46's
# call 4 never ran), then compute-sanitizer memcheck on the new kernels.
# Run from the repository root with the bundle carried:
#   bash docs/perf/life-words-2026-12-07/call1.sh
# DEADLINE (s, default 585) bounds the whole; each part stops early enough for the next.
set -uo pipefail
D=${DEADLINE:-585}
b=gpu-bundle
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
export STARPU_NCPU=2
new='GpuEquality.LifeByteWords:GpuEquality.TrapezoidsOnRowsOfFourCells2D:GpuEquality.LifeBits'
timeout 150 $b/run.sh gpu_equality_test --gtest_filter="$new" > $r/new-equality.log 2>&1
echo "new equality exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $r/new-equality.log | tr '\n' ' ')"
grep -E "^\[  FAILED  \]|Failure|differ" $r/new-equality.log | head -8
unset STARPU_NCPU
for app in life-words life life-bits; do
  left=$(( D - 230 - SECONDS ))
  [ $left -lt 40 ] && { echo "no time left for $app"; continue; }
  timeout $left $b/run.sh gpu_stencils --apps $app --rounds 3 --json-out $r/$app.json > $r/$app.txt 2>$r/$app-err.txt
  echo "$app exit $? at $SECONDS s"
  grep -E "^(kernels|copy|$app )" $r/$app.txt
done
export STARPU_NCPU=2
for suite in "gpu_equality_test --gtest_filter=-GpuSanitizer.*:$new" gpu_sweep_test gpu_wavefront_test gpu_layout_test; do
  left=$(( D - 50 - SECONDS ))
  [ $left -lt 20 ] && { echo "no time left for $suite"; continue; }
  log=$r/$(echo $suite | cut -d' ' -f1).log
  timeout $left $b/run.sh $suite > $log 2>&1
  echo "$suite exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $log | tr '\n' ' ')"
done | tee $r/suites.txt
grep -h "^\[  FAILED  \]" $r/*.log | head
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
left=$(( D - SECONDS ))
if [ $left -gt 25 ]; then
  STARPU_NCUDA=1 timeout $left $b/run.sh "$san" --tool memcheck --error-exitcode 9 --print-limit 20 \
    $b/bin/gpu_equality_test --gtest_filter="GpuSanitizer.*" > $r/memcheck.log 2>&1
  echo "memcheck exit $? at $SECONDS s: $(grep -E 'ERROR SUMMARY' $r/memcheck.log | tail -1)"
fi
tar -C $OUT -czf $OUT/call1.tgz r && rm -rf $r
echo "seconds $SECONDS"
