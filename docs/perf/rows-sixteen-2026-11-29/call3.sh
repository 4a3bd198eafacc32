#!/usr/bin/env bash
# Call 3 (nvidia-h200), session 44: the rest of the GPU label on 9ea1433's
# tree (racecheck on the wavefront subset, which takes about 140 s; the
# MPI-on-GPUs test), then issue 9's benchmark for the 2-D and 3-D apps, one
# app a command (so a time limit loses one row, not the table).
# Run from the repository root with the bundle carried:
#   bash docs/perf/rows-sixteen-2026-11-29/call3.sh
set -uo pipefail
b=gpu-bundle
here=$PWD/$b
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
export STARPU_NCPU=2
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
STARPU_NCUDA=1 timeout 200 $b/run.sh "$san" --tool racecheck --error-exitcode 9 --print-limit 20 $b/bin/gpu_wavefront_test \
  --gtest_filter='GpuWavefront.CutTiles*:GpuWavefront.SummedArea*' > $OUT/racecheck-wavefront.log 2>&1
echo "racecheck wavefront exit $? at $SECONDS s" | tee -a $OUT/racecheck-wavefront.log
grep -E "RACECHECK SUMMARY" $OUT/racecheck-wavefront.log
unset STARPU_NCPU
( cd $b && . ./mpi_ranked.sh &&
  LD_LIBRARY_PATH="$mpilib:$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" TRAPEZE_HOME="$here/trapeze-home" \
  timeout 150 python3 tests/mpi_gpu_test.py "$here/bin" > $OUT/mpi_gpu.log 2>&1; echo "mpi gpu test exit $? at $SECONDS s" )
tail -1 $OUT/mpi_gpu.log
for app in jacobi2d hotspot life life-bits; do
  left=$(( 585 - SECONDS ))
  [ $left -lt 60 ] && { echo "no time left for $app"; continue; }
  timeout $left $b/run.sh gpu_stencils --apps $app --rounds 3 --json-out $OUT/$app.json > $OUT/$app.txt 2>$OUT/$app-err.txt
  echo "$app exit $? at $SECONDS s"
  grep -E "^$app " $OUT/$app.txt
done
