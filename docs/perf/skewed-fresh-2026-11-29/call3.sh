#!/usr/bin/env bash
# Session 38, call 3: what call 2's 600 s cut off of run_gpu_tests.sh (its
# four GPU suites had passed): the MPI-on-GPUs test, then compute-sanitizer
# memcheck and racecheck on the subset run_gpu_tests.sh names (now with
# GpuEquality.SkewedSlabs).
set -uo pipefail
cd gpu-bundle
here=$PWD
start=$(date +%s)
export STARPU_NCPU=2
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
  for tool in memcheck racecheck; do
    echo "== $tool"
    STARPU_NCUDA=1 timeout 200 ./run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 bin/gpu_equality_test --gtest_filter='GpuSanitizer.*:GpuEquality.SkewedSlabs'; echo "$tool equality exit $?"
    STARPU_NCUDA=1 timeout 100 ./run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 bin/gpu_sweep_test --gtest_filter='GpuSweep.PeerWave*:GpuSweep.CutTiles*'; echo "$tool sweep exit $?"
    STARPU_NCUDA=1 timeout 100 ./run.sh "$san" --tool $tool --error-exitcode 9 --print-limit 20 bin/gpu_wavefront_test --gtest_filter='GpuWavefront.CutTiles*:GpuWavefront.SummedArea*'; echo "$tool wavefront exit $?"
    echo "at $(( $(date +%s) - start )) s"
  done
} > "$OUT/sanitizer.log" 2>&1
grep -E "exit|ERROR SUMMARY|RACECHECK SUMMARY|^at " "$OUT/sanitizer.log"
. ./mpi_ranked.sh
LD_LIBRARY_PATH="$mpilib:$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" TRAPEZE_HOME="$here/trapeze-home" \
  timeout $(( 540 - ($(date +%s) - start) )) python3 tests/mpi_gpu_test.py "$here/bin" > "$OUT/mpi_gpu.log" 2>&1; echo "mpi gpu test exit $?"
tail -2 "$OUT/mpi_gpu.log"
echo "total $(( $(date +%s) - start )) s"
