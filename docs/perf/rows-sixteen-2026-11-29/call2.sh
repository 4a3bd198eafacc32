#!/usr/bin/env bash
# Call 2 (nvidia-h200), session 44: the GPU label on 9ea1433's tree (3-D GPU
# tiles on rows of 16 cells since 94a80ba; the label's last full run was on
# 6e1b888): the four suites, then compute-sanitizer memcheck on
# run_gpu_tests.sh's subsets and racecheck on the equality and sweep subsets
# (call 3: racecheck on the wavefront subset, the MPI-on-GPUs test).
# Run from the repository root with the bundle carried:
#   bash docs/perf/rows-sixteen-2026-11-29/call2.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
export STARPU_NCPU=2
for suite in "gpu_equality_test --gtest_filter=-GpuSanitizer.*" gpu_sweep_test gpu_wavefront_test gpu_layout_test; do
  log=$OUT/$(echo $suite | cut -d' ' -f1).log
  timeout 240 $b/run.sh $suite > $log 2>&1
  echo "$suite exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $log | tr '\n' ' ')"
done | tee $OUT/suites.txt
grep -h "^\[  FAILED  \]" $OUT/*.log | head
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
  for tool in memcheck racecheck; do
    echo "== $tool"
    extra=""; [ $tool = memcheck ] && extra=":GpuEquality.SkewedSlabs"
    STARPU_NCUDA=1 timeout 150 $b/run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 $b/bin/gpu_equality_test --gtest_filter="GpuSanitizer.*$extra"; echo "$tool equality exit $? at $SECONDS s"
    STARPU_NCUDA=1 timeout 100 $b/run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 $b/bin/gpu_sweep_test --gtest_filter='GpuSweep.PeerWave*:GpuSweep.CutTiles*'; echo "$tool sweep exit $? at $SECONDS s"
    if [ $tool = memcheck ]; then
      STARPU_NCUDA=1 timeout 100 $b/run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 $b/bin/gpu_wavefront_test --gtest_filter='GpuWavefront.CutTiles*:GpuWavefront.SummedArea*'; echo "$tool wavefront exit $? at $SECONDS s"
    fi
  done
} > $OUT/sanitizer.log 2>&1
grep -E "exit|ERROR SUMMARY|RACECHECK SUMMARY" $OUT/sanitizer.log
echo "seconds $SECONDS"
