#!/usr/bin/env bash
# Call 4, prepared in session 46 and NOT RUN (no machine could start, then the
# session's device time was spent): for the next session, any one GPU: the GPU label on this session's tree
# (the 3-D single step in bands), then issue 11's blocking factor under a
# quarter cap against fixed heights (jacobi2d 16384^2, 512 and 2048 steps),
# then compute-sanitizer memcheck and the MPI-on-GPUs test as time allows.
# Run from the repository root with the bundle (and scripts/device/*.sh in it) carried:
#   bash docs/perf/h100-2026-12-07/call4.sh
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
unset STARPU_NCPU
J="jacobi2d --size 16384 --steps 512"; L="jacobi2d --size 16384 --steps 2048"
CASES="k 512: auto|h|256|$J
k 512: H 64|h|256|$J --height 64
k 512: H 96|h|256|$J --height 96
k 512: H 192|h|256|$J --height 192
k 512: H 256|h|256|$J --height 256
k 2048: auto|h|256|$L
k 2048: H 256|h|256|$L --height 256
k 2048: H 384|h|256|$L --height 384" \
PROFILES="h|jacobi2d --size 4096 --steps 16" ROUNDS=3 RUN_TIMEOUT=40 OUT=$r timeout 150 $b/device_plans.sh 2>&1 | tee $r/plans.txt | tail -10
echo "plans at $SECONDS s"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
left=$(( 400 - SECONDS ))
if [ $left -gt 20 ]; then
  STARPU_NCPU=2 STARPU_NCUDA=1 timeout $left $b/run.sh "$san" --tool memcheck --error-exitcode 9 --print-limit 20 \
    $b/bin/gpu_equality_test --gtest_filter="GpuSanitizer.*:GpuEquality.SkewedSlabs" > $r/memcheck.log 2>&1
  echo "memcheck equality exit $? at $SECONDS s: $(grep -E 'ERROR SUMMARY' $r/memcheck.log | tail -1)"
fi
left=$(( 470 - SECONDS ))
if [ $left -gt 40 ]; then
  ( cd $b && . ./mpi_ranked.sh &&
    LD_LIBRARY_PATH="$mpilib:$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" TRAPEZE_HOME="$here/trapeze-home" \
    timeout $left python3 tests/mpi_gpu_test.py "$here/bin" > $r/mpi_gpu.log 2>&1; echo "mpi gpu test exit $? at $SECONDS s" ) | tee -a $r/suites.txt
  tail -1 $r/mpi_gpu.log
else
  echo "no time left for the MPI-on-GPUs test" | tee -a $r/suites.txt
fi
tar -C $OUT -czf $OUT/call4.tgz r && rm -rf $r
echo "seconds $SECONDS"
