#!/usr/bin/env bash
# Call 2 (nvidia-h200), session 45: the whole GPU label on 883d304's tree
# (HotSpot on the 16-byte 2-D trapezoid; the label's last full run was on
# 9ea1433, before that kernel): the four suites, compute-sanitizer memcheck on
# run_gpu_tests.sh's subsets, racecheck on the equality, sweep and wavefront
# subsets, then the MPI-on-GPUs test.
# Run from the repository root with the bundle carried:
#   bash docs/perf/hotspot-quads-2026-11-29/call2.sh
set -uo pipefail
b=gpu-bundle
here=$PWD/$b
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
export STARPU_NCPU=2
for suite in "gpu_equality_test --gtest_filter=-GpuSanitizer.*" gpu_sweep_test gpu_wavefront_test gpu_layout_test; do
  log=$r/$(echo $suite | cut -d' ' -f1).log
  timeout 200 $b/run.sh $suite > $log 2>&1
  echo "$suite exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \]' $log | tr '\n' ' ')"
done | tee $r/suites.txt
grep -h "^\[  FAILED  \]" $r/*.log | head
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
  for tool in memcheck racecheck; do
    echo "== $tool"
    extra=""; [ $tool = memcheck ] && extra=":GpuEquality.SkewedSlabs"
    STARPU_NCUDA=1 timeout 150 $b/run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 $b/bin/gpu_equality_test --gtest_filter="GpuSanitizer.*$extra"; echo "$tool equality exit $? at $SECONDS s"
    STARPU_NCUDA=1 timeout 100 $b/run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 $b/bin/gpu_sweep_test --gtest_filter='GpuSweep.PeerWave*:GpuSweep.CutTiles*'; echo "$tool sweep exit $? at $SECONDS s"
    left=$(( 530 - SECONDS )); [ $left -gt 160 ] && left=160
    STARPU_NCUDA=1 timeout $left $b/run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 $b/bin/gpu_wavefront_test --gtest_filter='GpuWavefront.CutTiles*:GpuWavefront.SummedArea*'; echo "$tool wavefront exit $? at $SECONDS s"
  done
} > $r/sanitizer.log 2>&1
grep -E "exit|ERROR SUMMARY|RACECHECK SUMMARY" $r/sanitizer.log
unset STARPU_NCPU
left=$(( 590 - SECONDS ))
if [ $left -gt 40 ]; then
  ( cd $b && . ./mpi_ranked.sh &&
    LD_LIBRARY_PATH="$mpilib:$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" TRAPEZE_HOME="$here/trapeze-home" \
    timeout $left python3 tests/mpi_gpu_test.py "$here/bin" > $r/mpi_gpu.log 2>&1; echo "mpi gpu test exit $? at $SECONDS s" ) | tee -a $r/suites.txt
  tail -1 $r/mpi_gpu.log
else
  echo "no time left for the MPI-on-GPUs test" | tee -a $r/suites.txt
fi
tar -C $OUT -czf $OUT/call2.tgz r && rm -rf $r
echo "seconds $SECONDS"
