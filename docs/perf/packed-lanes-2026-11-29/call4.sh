#!/usr/bin/env bash
# Call 4 (nvidia-h200), session 43: the rest of run_gpu_tests.sh on call
# 3's tree: compute-sanitizer memcheck and racecheck on the subset it names,
# then the MPI-on-GPUs test.
# Run from the repository root with the bundle carried: bash docs/perf/packed-lanes-2026-11-29/call4.sh
set -uo pipefail
cd gpu-bundle
here=$PWD
export STARPU_NCPU=2
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
  for tool in memcheck racecheck; do
    echo "== $tool"
    extra=""; [ $tool = memcheck ] && extra=":GpuEquality.SkewedSlabs"
    STARPU_NCUDA=1 timeout 200 ./run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 bin/gpu_equality_test --gtest_filter="GpuSanitizer.*$extra"; echo "$tool equality exit $?"
    STARPU_NCUDA=1 timeout 100 ./run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 bin/gpu_sweep_test --gtest_filter='GpuSweep.PeerWave*:GpuSweep.CutTiles*'; echo "$tool sweep exit $?"
    STARPU_NCUDA=1 timeout 100 ./run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 bin/gpu_wavefront_test --gtest_filter='GpuWavefront.CutTiles*:GpuWavefront.SummedArea*'; echo "$tool wavefront exit $?"
    echo "at $SECONDS s"
  done
} > "$OUT/sanitizer.log" 2>&1
grep -E "exit|ERROR SUMMARY|RACECHECK SUMMARY|^at " "$OUT/sanitizer.log"
. ./mpi_ranked.sh
LD_LIBRARY_PATH="$mpilib:$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" TRAPEZE_HOME="$here/trapeze-home" \
  timeout $(( 560 - SECONDS )) python3 tests/mpi_gpu_test.py "$here/bin" > "$OUT/mpi_gpu.log" 2>&1; echo "mpi gpu test exit $? at $SECONDS s"
tail -2 "$OUT/mpi_gpu.log"
